// One settings card: its fields from the description, and a save button that sends only the keys
// that changed (one PUT each) and says how it went (spec part 1 §4, §5, §8).
import { SaveOutlined } from '@ant-design/icons';
import { Button, Card, Form, Row } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../components/feedback';
import { translateServerMessage } from '../../../lib/api';
import { putOption, useAfterSave } from './api';
import {
  changedOptions,
  isSecretField,
  saveChanges,
  saveOutcome,
  storedWire,
  toFormValue,
  toWireValue,
} from './fields';
import type { CardDesc, FormValue, StoredOptions } from './fields';
import { OptionField } from './option-field';

type Values = Record<string, FormValue>;

function formValues(card: CardDesc, stored: StoredOptions): Values {
  return Object.fromEntries(card.fields.map((field) => [field.key, toFormValue(field, stored[field.key])]));
}

export function SettingsCard({ card, stored }: { card: CardDesc; stored: StoredOptions }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [form] = Form.useForm<Values>();
  const afterSave = useAfterSave();
  const [saving, setSaving] = useState(false);
  const [initialValues] = useState(() => formValues(card, stored));

  // When the stored values change under the card (a save elsewhere, a ratio reset), fields the user
  // has not edited follow them; edits in progress are kept.
  const previous = useRef(stored);
  useEffect(() => {
    const before = previous.current;
    previous.current = stored;
    if (before === stored) return;
    for (const field of card.fields) {
      if (isSecretField(field) || before[field.key] === stored[field.key]) continue;
      const untouched =
        toWireValue(field, form.getFieldValue(field.key)) === storedWire(field, before[field.key]);
      if (untouched) form.setFieldValue(field.key, toFormValue(field, stored[field.key]));
    }
  }, [stored, card, form]);

  const save = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      void message.error(t('msg.invalidInput'));
      return;
    }
    const changes = changedOptions(card.fields, values, stored);
    if (changes.length === 0) {
      void message.warning(t('msg.nothingChanged'));
      return;
    }
    const blocked = card.beforeSave?.(stored);
    if (blocked) {
      void message.error(t(`msg.${blocked}`));
      return;
    }
    setSaving(true);
    const result = await saveChanges(changes, putOption);
    setSaving(false);
    afterSave(result.saved);
    // A saved secret is not shown again; its field goes back to "unchanged".
    for (const { key } of result.saved) {
      const field = card.fields.find((f) => f.key === key);
      if (field && isSecretField(field)) form.setFieldValue(key, '');
    }
    form.setFields(
      result.failed.map(({ key, reason }) => ({ name: key, errors: [translateServerMessage(reason)] })),
    );
    const outcome = saveOutcome(result);
    if (outcome === 'saveSuccess') void message.success(t('siteSettings.saveSuccess'));
    else void message.error(t(`msg.${outcome === 'someSavesFailed' ? 'someSavesFailed' : 'saveFailed'}`));
  };

  const Extra = card.extra;
  return (
    <Card title={t(`siteSettings.cards.${card.key}`)}>
      <Form<Values>
        form={form}
        name={card.key}
        layout="vertical"
        initialValues={initialValues}
        autoComplete="off"
      >
        <Row gutter={24}>
          {card.fields.map((field) => (
            <OptionField key={field.key} field={field} server={stored.ServerAddress ?? ''} />
          ))}
        </Row>
        <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save()}>
          {t('siteSettings.save')}
        </Button>
      </Form>
      {Extra && <Extra stored={stored} />}
    </Card>
  );
}
