// Admin-written page content (home, about): a bare URL is shown in a frame, anything else is
// Markdown rendered to sanitised HTML.
import { theme } from 'antd';
import { isFrameUrl, renderMarkdown } from '../lib/markdown';

export function SiteContent({ content, title }: { content: string; title: string }) {
  const { token } = theme.useToken();
  if (isFrameUrl(content)) {
    return (
      <iframe
        src={content.trim()}
        title={title}
        style={{ width: '100%', height: 'calc(100vh - 160px)', border: 'none' }}
      />
    );
  }
  return (
    <article
      className="markdown-content"
      style={{ maxWidth: 960, margin: '0 auto', color: token.colorText, lineHeight: 1.7 }}
      dangerouslySetInnerHTML={{ __html: renderMarkdown(content) }}
    />
  );
}
