// Home and about content: Markdown rendered to sanitised HTML, or a bare link shown in a frame.
import { marked } from 'marked';
import { sanitizeHtml } from './sanitize';

export const renderMarkdown = (markdown: string): string =>
  sanitizeHtml(marked.parse(markdown, { async: false, gfm: true }));

export const isFrameUrl = (content: string): boolean => /^https?:\/\/\S+$/.test(content.trim());
