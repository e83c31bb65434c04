// Copy to the clipboard; when the browser refuses, a dialog shows the text to copy by hand
// (spec: "cannot copy to clipboard, copy manually").
import { theme } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from './feedback';

/** Tries the async clipboard API, then the legacy copy command; false when both fail. */
export async function writeClipboard(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Permission refused or not focused: try the older way.
  }
  try {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  } catch {
    return false;
  }
}

function ManualCopy({ text, label, hint }: { text: string; label: string; hint: string }) {
  const { token } = theme.useToken();
  return (
    <>
      <p style={{ marginTop: 0 }}>{hint}</p>
      <textarea
        value={text}
        readOnly
        aria-label={label}
        rows={Math.min(6, Math.max(2, Math.ceil(text.length / 40)))}
        onFocus={(e) => e.currentTarget.select()}
        style={{
          width: '100%',
          boxSizing: 'border-box',
          padding: 8,
          fontFamily: token.fontFamilyCode,
          color: token.colorText,
          background: token.colorFillTertiary,
          border: `1px solid ${token.colorBorder}`,
          borderRadius: token.borderRadius,
          resize: 'vertical',
        }}
      />
    </>
  );
}

/** `copy(text, successMessage?)` resolves to whether the clipboard took the text. */
export function useCopy(): (text: string, successMessage?: string) => Promise<boolean> {
  const { message, modal } = useFeedback();
  const { t } = useTranslation();
  return useCallback(
    async (text: string, successMessage?: string) => {
      if (await writeClipboard(text)) {
        void message.success(successMessage ?? t('copy.copied'));
        return true;
      }
      modal.warning({
        title: t('copy.manualTitle'),
        content: <ManualCopy text={text} label={t('copy.manualTitle')} hint={t('copy.manualHint')} />,
        okText: t('common.close'),
      });
      return false;
    },
    [message, modal, t],
  );
}
