// A JSON text field of a drawer form (model mapping, status-code mapping): monospace text, a
// template to start from, a format action, and the check that it holds a JSON object.
import { Button, Form, Input, Space, theme } from 'antd';
import type { FormRule } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function JsonTextField({
  name,
  label,
  help,
  template,
  rules,
}: {
  name: string;
  label: string;
  help?: ReactNode;
  template: string;
  rules?: FormRule[];
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const form = Form.useFormInstance();

  const format = () => {
    const text = String(form.getFieldValue(name) ?? '').trim();
    if (text === '') return;
    try {
      form.setFieldValue(name, JSON.stringify(JSON.parse(text), null, 2));
    } catch {
      // Leave it as typed; the field's rule says what is wrong.
    }
    void form.validateFields([name]);
  };

  return (
    <Form.Item label={label} required={false} extra={help} style={{ marginBottom: 16 }}>
      <Form.Item name={name} rules={rules} style={{ marginBottom: 0 }}>
        <Input.TextArea
          aria-label={label}
          autoSize={{ minRows: 3, maxRows: 10 }}
          placeholder={template}
          spellCheck={false}
          style={{ fontFamily: token.fontFamilyCode }}
        />
      </Form.Item>
      <Space size={0}>
        <Button
          type="link"
          size="small"
          style={{ paddingInline: 0, marginInlineEnd: 12 }}
          onClick={() => {
            form.setFieldValue(name, template);
            void form.validateFields([name]);
          }}
        >
          {t('channels.form.fillTemplate')}
        </Button>
        <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={format}>
          {t('channels.form.formatJson')}
        </Button>
      </Space>
    </Form.Item>
  );
}
