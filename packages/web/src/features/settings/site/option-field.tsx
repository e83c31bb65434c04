// One option field, drawn from its description: the control for its kind, its label and help, and
// rules taken from the option registry (the server checks the same).
import { EyeOutlined } from '@ant-design/icons';
import { Button, Col, Form, Input, InputNumber, Modal, Select, Switch, theme } from 'antd';
import type { FormRule } from 'antd';
import { parseOptionValue } from '@sluice/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SiteContent } from '../../../components/site-content';
import { useFeedback } from '../../../components/feedback';
import { translateServerMessage } from '../../../lib/api';
import { sanitizeHtml } from '../../../lib/sanitize';
import { hasHelp, isIntegerField, isSecretField, toWireValue } from './fields';
import type { FieldDesc, FormValue } from './fields';

/** Short controls sit three to a row on wide screens; long texts take the whole width. */
const SHORT = { xs: 24, md: 12, xl: 8 };
const FULL = { xs: 24, md: 24, xl: 24 };
const SPANS: Record<FieldDesc['kind'], typeof SHORT> = {
  switch: SHORT,
  input: SHORT,
  number: SHORT,
  select: SHORT,
  textarea: FULL,
  json: FULL,
  tags: FULL,
};

function useRules(field: FieldDesc): FormRule[] {
  const { t } = useTranslation();
  if (field.kind === 'number') {
    const min = field.min ?? 0;
    return [
      {
        validator: async (_rule, value: FormValue) => {
          if (value === null || value === undefined || value === '')
            throw new Error(t('siteSettings.required'));
          if (typeof value !== 'number' || value < min) throw new Error(t('siteSettings.minValue', { min }));
          if (isIntegerField(field) && !Number.isInteger(value))
            throw new Error(t('siteSettings.wholeNumber'));
        },
      },
    ];
  }
  if (field.kind === 'json') {
    return [
      {
        // The registry's parser gives the spec's sentences: 'not a valid JSON string', and the
        // top-up group ratio's own one.
        validator: async (_rule, value: FormValue) => {
          const result = parseOptionValue(field.key, toWireValue(field, value));
          if (!result.ok) throw new Error(translateServerMessage(result.message));
        },
      },
    ];
  }
  return [];
}

/** A switch that asks before it is turned off. */
function ConfirmSwitch({
  checked,
  onChange,
  id,
}: {
  checked?: boolean;
  onChange?: (checked: boolean) => void;
  id?: string;
}) {
  const { t } = useTranslation();
  const { modal } = useFeedback();
  return (
    <Switch
      id={id}
      checked={checked}
      onChange={(next) => {
        if (next) return onChange?.(true);
        modal.confirm({
          title: t('siteSettings.confirmPasswordLoginOffTitle'),
          content: t('siteSettings.confirmPasswordLoginOff'),
          okText: t('siteSettings.turnOff'),
          okButtonProps: { danger: true },
          onOk: () => onChange?.(false),
        });
      }}
    />
  );
}

function PreviewButton({ field }: { field: FieldDesc }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [open, setOpen] = useState(false);
  const form = Form.useFormInstance();
  const content = open ? String(form.getFieldValue(field.key) ?? '') : '';
  return (
    <>
      <Button size="small" icon={<EyeOutlined />} onClick={() => setOpen(true)} style={{ marginTop: 8 }}>
        {t('siteSettings.preview')}
      </Button>
      <Modal
        open={open}
        title={t(`siteSettings.fields.${field.key}`)}
        footer={null}
        onCancel={() => setOpen(false)}
        width={800}
        destroyOnHidden
      >
        {content.trim() === '' ? (
          <p style={{ color: token.colorTextTertiary }}>{t('siteSettings.previewEmpty')}</p>
        ) : field.preview === 'html' ? (
          <div dangerouslySetInnerHTML={{ __html: sanitizeHtml(content) }} />
        ) : (
          <SiteContent content={content} title={t(`siteSettings.fields.${field.key}`)} />
        )}
      </Modal>
    </>
  );
}

/** Form.Item hands value/checked, onChange and id to its child; they go on to the real control. */
type ControlProps = Record<string, unknown>;

function Control({ field, ...props }: { field: FieldDesc } & ControlProps) {
  const { t } = useTranslation();
  switch (field.kind) {
    case 'switch':
      return field.confirmOff ? <ConfirmSwitch {...props} /> : <Switch {...props} />;
    case 'number':
      return (
        <InputNumber<number>
          {...props}
          min={field.min ?? 0}
          precision={isIntegerField(field) ? 0 : undefined}
          style={{ width: '100%' }}
        />
      );
    case 'select':
      return (
        <Select
          {...props}
          options={(field.choices?.values ?? []).map((value) => ({
            value,
            label: t(`siteSettings.dataExportTime.${value}`),
          }))}
        />
      );
    case 'tags':
      return <Select {...props} mode="tags" tokenSeparators={[',', ' ']} open={false} suffixIcon={null} />;
    case 'json':
      return (
        <Input.TextArea
          {...props}
          rows={field.rows ?? 6}
          spellCheck={false}
          style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 }}
        />
      );
    case 'textarea':
      return <Input.TextArea {...props} rows={field.rows ?? 4} />;
    case 'input':
      return isSecretField(field) ? (
        <Input.Password
          {...props}
          placeholder={t('siteSettings.secretPlaceholder')}
          autoComplete="new-password"
        />
      ) : (
        <Input {...props} autoComplete="off" />
      );
  }
}

export function OptionField({ field, server }: { field: FieldDesc; server: string }) {
  const { t } = useTranslation();
  const rules = useRules(field);
  const help = hasHelp(field.key)
    ? t(`siteSettings.help.${field.key}`, { server: server || 'https://…' })
    : undefined;
  return (
    <Col {...SPANS[field.kind]}>
      <Form.Item
        name={field.key}
        label={t(`siteSettings.fields.${field.key}`)}
        extra={help}
        rules={rules}
        valuePropName={field.kind === 'switch' ? 'checked' : 'value'}
        validateTrigger={field.kind === 'json' ? 'onBlur' : 'onChange'}
        style={field.preview ? { marginBottom: 8 } : undefined}
      >
        <Control field={field} />
      </Form.Item>
      {field.preview && (
        <div style={{ marginBottom: 24 }}>
          <PreviewButton field={field} />
        </div>
      )}
    </Col>
  );
}
