// Admin-written HTML (footer, rendered Markdown) is shown only after DOMPurify cleans it.
import DOMPurify from 'dompurify';

export const sanitizeHtml = (html: string): string => DOMPurify.sanitize(html);
