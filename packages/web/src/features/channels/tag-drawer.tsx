// The tag-edit drawer (spec part 1 §2/§3/§5): renames a tag and sets the model mapping, groups and
// models of every channel with it. Only changed fields are sent; nothing changed says so.
import { Button, Drawer, Form, Input, Select, Space, Typography } from 'antd';
import { channelTagEditSchema } from '@sluice/shared';
import type { ChannelTagRow } from '@sluice/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDrawerSize } from '../../components/drawer-size';
import { useFeedback } from '../../components/feedback';
import { translateServerMessage } from '../../lib/api';
import { zodRule } from '../../lib/form-rules';
import { editTag, useChannelGroups } from './api';
import { MODEL_MAPPING_TEMPLATE } from './channel-form';
import { JsonTextField } from './json-text-field';
import { buildTagEdit, tagFormInitial } from './tag-form';
import type { TagFormValues } from './tag-form';

export interface TagDrawerProps {
  open: boolean;
  row: ChannelTagRow | null;
  onClose(): void;
  onSaved(): void;
}

export function TagDrawer({ open, row, onClose, onSaved }: TagDrawerProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const size = useDrawerSize();
  const groups = useChannelGroups();
  const [form] = Form.useForm<TagFormValues>();
  const [saving, setSaving] = useState(false);
  const tag = row?.tag ?? '';
  const initial = row ? tagFormInitial(row) : tagFormInitial({ tag: '', group: '', models: '' });

  const submit = async () => {
    const values = { ...initial, ...(form.getFieldsValue(true) as Partial<TagFormValues>) };
    const result = buildTagEdit(tag, initial, values);
    if (!result.ok) {
      const { error } = result;
      void message.error('key' in error ? t(error.key) : translateServerMessage(error.serverText));
      return;
    }
    setSaving(true);
    try {
      await editTag(result.payload);
      void message.success(t('channels.tagForm.updated'));
      onSaved();
      onClose();
    } catch {
      // lib/api.ts has shown the server's reason.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('channels.tagForm.title', { tag })}
      placement="right"
      size={size}
      destroyOnHidden
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={saving} onClick={() => form.submit()}>
            {t('channels.form.submit')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        {t('channels.tagForm.intro', { count: row?.channel_count ?? 0 })}
      </Typography.Paragraph>
      <Form<TagFormValues>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={() => void submit()}
        onFinishFailed={() => void message.error(t('msg.invalidInput'))}
        requiredMark={false}
        autoComplete="off"
      >
        <Form.Item label={t('channels.tagForm.tag')}>
          <Input value={tag} disabled />
        </Form.Item>
        <Form.Item
          name="newTag"
          label={t('channels.tagForm.newTag')}
          extra={t('channels.tagForm.newTagHelp')}
        >
          <Input />
        </Form.Item>
        <JsonTextField
          name="model_mapping"
          label={t('channels.form.modelMapping')}
          help={t('channels.tagForm.keepHelp')}
          template={MODEL_MAPPING_TEMPLATE}
          rules={[zodRule(channelTagEditSchema.shape.model_mapping)]}
        />
        <Form.Item name="groups" label={t('channels.form.groups')} extra={t('channels.tagForm.keepHelp')}>
          <Select
            mode="tags"
            loading={groups.isPending}
            options={(groups.data ?? []).map((g) => ({ value: g, label: g }))}
          />
        </Form.Item>
        <Form.Item name="models" label={t('channels.form.models')} extra={t('channels.tagForm.keepHelp')}>
          <Select
            mode="tags"
            tokenSeparators={[',']}
            maxTagCount="responsive"
            options={initial.models.map((m) => ({ value: m, label: m }))}
          />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
