// The drawer's key field: one key per line creates one channel each; the type table gives the key's
// hint (what the key is, or its bare format) and placeholder, and service-account types take JSON,
// uploaded as one or several files.
import { UploadOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space, Typography, theme } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../components/feedback';
import { countKeys } from './channel-form';
import { channelTypeOrDefault } from './channel-type-table';

/** Reads service-account files; each must hold one JSON object. Answers one compact object per line. */
export async function readServiceAccountFiles(
  files: readonly File[],
): Promise<{ ok: true; key: string } | { ok: false; file: string }> {
  const keys: string[] = [];
  for (const file of files) {
    try {
      const parsed: unknown = JSON.parse(await file.text());
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        return { ok: false, file: file.name };
      keys.push(JSON.stringify(parsed));
    } catch {
      return { ok: false, file: file.name };
    }
  }
  return { ok: true, key: keys.join('\n') };
}

export function KeyField({ type, isEdit }: { type: number; isEdit: boolean }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const { token } = theme.useToken();
  const form = Form.useFormInstance();
  const key = (Form.useWatch('key', form) as string | undefined) ?? '';
  const fileInput = useRef<HTMLInputElement>(null);
  const row = channelTypeOrDefault(type);
  const json = row.keyInput === 'serviceAccountJson';
  const count = countKeys(type, key);

  const upload = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const result = await readServiceAccountFiles([...files]);
    if (!result.ok) {
      void message.error(t('channels.form.uploadInvalid', { file: result.file }));
      return;
    }
    form.setFieldValue('key', result.key);
    void message.success(t('channels.form.uploaded', { count: files.length }));
  };

  const hints = [
    row.keyHint
      ? t(`channels.keyHint.${row.keyHint}`)
      : row.keyFormat
        ? t('channels.form.keyFormat', { format: row.keyFormat })
        : null,
    isEdit
      ? t('channels.form.keyKeep')
      : json
        ? t('channels.form.keyJsonBatch')
        : t('channels.form.keyBatch'),
  ].filter((hint): hint is string => hint !== null);

  return (
    <Form.Item
      label={t('channels.form.key')}
      required={!isEdit}
      extra={
        <Space orientation="vertical" size={0}>
          {hints.map((hint) => (
            <span key={hint}>{hint}</span>
          ))}
          {!isEdit && count > 1 && (
            <Typography.Text type="warning">{t('channels.form.batchCount', { count })}</Typography.Text>
          )}
        </Space>
      }
    >
      <Form.Item name="key" noStyle>
        <Input.TextArea
          aria-label={t('channels.form.key')}
          autoSize={{ minRows: json ? 4 : 2, maxRows: 10 }}
          placeholder={
            isEdit
              ? t('channels.form.keyEditPlaceholder')
              : (row.keyPlaceholder ?? row.keyFormat ?? t('channels.form.keyPlaceholder'))
          }
          spellCheck={false}
          autoComplete="off"
          style={{ fontFamily: token.fontFamilyCode }}
        />
      </Form.Item>
      {json && (
        <>
          <input
            ref={fileInput}
            type="file"
            accept=".json,application/json"
            multiple={!isEdit}
            // antd's form styles give file inputs display:block, which beats the hidden attribute;
            // an inline display wins, so only the styled button below shows.
            hidden
            style={{ display: 'none' }}
            aria-label={t('channels.form.uploadJson')}
            onChange={(e) => {
              void upload(e.target.files);
              e.target.value = '';
            }}
          />
          <Button
            size="small"
            icon={<UploadOutlined />}
            style={{ marginTop: 8 }}
            onClick={() => fileInput.current?.click()}
          >
            {t('channels.form.uploadJson')}
          </Button>
        </>
      )}
    </Form.Item>
  );
}
