// The channel create/edit drawer (spec part 1 §2): create when there is no id (opens from the
// left), edit when there is one (from the right); 600 px wide, full width on narrow screens.
import { Button, Drawer, Empty, Form, Space, Spin } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDrawerSize } from '../../components/drawer-size';
import { useFeedback } from '../../components/feedback';
import { translateServerMessage } from '../../lib/api';
import { createChannels, updateChannel, useChannelDetail } from './api';
import { ChannelFormBody } from './channel-form-body';
import { NEW_CHANNEL_DEFAULTS, buildChannelPayload, toFormValues } from './channel-form';
import type { ChannelFormValues, FormError } from './channel-form';
import { typeName } from './channel-display';
import { channelTypeOrDefault, isServedType } from './channel-type-table';

export interface ChannelDrawerProps {
  open: boolean;
  /** Edit this channel; create a new one when absent. */
  channelId?: number;
  onClose(): void;
  onSaved(): void;
}

export function ChannelDrawer({ open, channelId, onClose, onSaved }: ChannelDrawerProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const size = useDrawerSize();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ChannelFormValues>();
  const [saving, setSaving] = useState(false);
  const isEdit = channelId !== undefined;
  const detail = useChannelDetail(channelId);

  const errorText = (error: FormError) =>
    'key' in error ? t(error.key) : translateServerMessage(error.serverText);

  const submit = async () => {
    // Every value the form holds, including fields the current type does not show.
    const stored = form.getFieldsValue(true) as Partial<ChannelFormValues>;
    const values: ChannelFormValues = { ...NEW_CHANNEL_DEFAULTS, ...stored };
    if (!channelTypeOrDefault(values.type).organization) values.openai_organization = '';
    const result = buildChannelPayload(values, channelId);
    if (!result.ok) {
      void message.error(errorText(result.error));
      return;
    }
    // Saved all the same (an operator may prepare a channel), but never as if it would work.
    const unserved = isServedType(values.type) ? null : { type: typeName(t, values.type) };
    setSaving(true);
    try {
      if (channelId !== undefined) {
        await updateChannel({ ...result.payload, id: channelId });
        await queryClient.invalidateQueries({ queryKey: ['channel', channelId] });
        if (unserved) void message.warning(t('channels.support.updated', unserved));
        else void message.success(t('channels.form.updated'));
      } else {
        await createChannels(result.payload);
        if (unserved) void message.warning(t('channels.support.created', unserved));
        else void message.success(t('channels.form.created'));
      }
      onSaved();
      onClose();
    } catch {
      // lib/api.ts has shown the server's reason; the form keeps what was typed.
    } finally {
      setSaving(false);
    }
  };

  let body;
  if (!isEdit) {
    body = (
      <ChannelFormBody
        form={form}
        initial={NEW_CHANNEL_DEFAULTS}
        onFinish={() => void submit()}
        onFinishFailed={() => void message.error(t('msg.invalidInput'))}
      />
    );
  } else if (detail.data) {
    body = (
      <ChannelFormBody
        key={channelId}
        form={form}
        initial={toFormValues(detail.data)}
        channelId={channelId}
        onFinish={() => void submit()}
        onFinishFailed={() => void message.error(t('msg.invalidInput'))}
      />
    );
  } else if (detail.isError) {
    body = (
      <Empty description={t('channels.form.loadFailed')}>
        <Button onClick={() => void detail.refetch()}>{t('common.retry')}</Button>
      </Empty>
    );
  } else {
    body = (
      <div style={{ display: 'flex', justifyContent: 'center', padding: 48 }}>
        <Spin aria-label={t('common.loading')} />
      </div>
    );
  }

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={
        isEdit
          ? t('channels.form.editTitle', { name: detail.data?.name ?? `#${channelId}` })
          : t('channels.form.createTitle')
      }
      placement={isEdit ? 'right' : 'left'}
      size={size}
      destroyOnHidden
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            loading={saving}
            disabled={isEdit && !detail.data}
            onClick={() => form.submit()}
          >
            {t('channels.form.submit')}
          </Button>
        </Space>
      }
    >
      {body}
    </Drawer>
  );
}
