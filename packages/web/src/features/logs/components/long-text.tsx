// Long text in a table cell (prompts, failure reasons, log details): one shortened line; clicking
// it opens the whole text in a dialog where it can be read and copied.
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../components/feedback';

export function LongText({ text, title, width = 200 }: { text: string; title: string; width?: number }) {
  const { t } = useTranslation();
  const { modal } = useFeedback();
  if (text === '') return <Typography.Text type="secondary">-</Typography.Text>;
  const open = () =>
    modal.info({
      title,
      content: (
        <Typography.Paragraph copyable={{ text }} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {text}
        </Typography.Paragraph>
      ),
      okText: t('common.close'),
    });
  return (
    <Typography.Link
      onClick={open}
      ellipsis
      title={t('logs.showFull')}
      style={{ display: 'inline-block', maxWidth: width }}
    >
      {text}
    </Typography.Link>
  );
}
