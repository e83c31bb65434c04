// Admin-written HTML (footer, rendered Markdown) is shown only after DOMPurify cleans it.
import DOMPurify from 'dompurify';

/** Outside a browser (a first paint rendered by the server) DOMPurify cannot clean: nothing is shown. */
export const sanitizeHtml = (html: string): string => (DOMPurify.isSupported ? DOMPurify.sanitize(html) : '');
