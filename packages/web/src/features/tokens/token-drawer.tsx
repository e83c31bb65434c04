// The side drawer that creates tokens (one or a batch) or edits one. Quota, expiry, model limits,
// IP allow-list and group; the server still checks every field and explains a refusal.
import { Button, Drawer, Flex, Form, Input, InputNumber, Select, Space, Switch, Tag, Typography } from 'antd';
import { TOKEN_BATCH_MAX, tokenCreateSchema } from '@sluice/shared';
import type { TokenView } from '@sluice/shared';
import { useTranslation } from 'react-i18next';
import { useDrawerSize } from '../../components/drawer-size';
import { useFeedback } from '../../components/feedback';
import { useFormatQuota } from '../../components/quota';
import { translateServerMessage } from '../../lib/api';
import { zodRule } from '../../lib/form-rules';
import { useCreateTokens, useUpdateToken, useUserGroups, useUserModels } from './api';
import {
  BATCH_PRESETS,
  NEW_TOKEN_VALUES,
  QUOTA_PRESETS,
  parseExpiry,
  toCreateInput,
  toUpdateInput,
  valuesFromToken,
} from './token-form';
import type { TokenFormValues } from './token-form';
import { ExpiryInput, PresetButtons } from './token-form-fields';

const QUOTA_BUTTONS = QUOTA_PRESETS.map((p) => ({ value: p.quota, label: p.label }));
const COUNT_BUTTONS = BATCH_PRESETS.map((n) => ({ value: n, label: String(n) }));

export interface TokenDrawerProps {
  open: boolean;
  /** null creates new tokens. */
  token: TokenView | null;
  onClose(): void;
  onSaved(): void;
}

export function TokenDrawer({ open, token, onClose, onSaved }: TokenDrawerProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const size = useDrawerSize();
  const formatQuota = useFormatQuota();
  const [form] = Form.useForm<TokenFormValues>();
  const create = useCreateTokens();
  const update = useUpdateToken();
  const models = useUserModels(open);
  const groups = useUserGroups(open);
  const editing = token !== null;

  const unlimited = Form.useWatch('unlimited_quota', form) ?? false;
  const limitModels = Form.useWatch('model_limits_enabled', form) ?? false;
  const quota = Form.useWatch('remain_quota', form);

  const groupOptions = Object.entries(groups.data ?? {}).map(([name, info]) => ({
    value: name,
    label: name,
    desc: translateServerMessage(info.desc),
    ratio: info.ratio,
  }));
  const noGroups = groups.isSuccess && groupOptions.length === 0;

  const done = (text: string) => {
    void message.success(text);
    onSaved();
    onClose();
  };
  const submit = (values: TokenFormValues) => {
    if (token) {
      update.mutate(toUpdateInput(token.id, values), { onSuccess: () => done(t('tokens.updated')) });
    } else {
      create.mutate(toCreateInput(values), {
        onSuccess: (created) =>
          done(created.length > 1 ? t('tokens.createdMany', { count: created.length }) : t('tokens.created')),
      });
    }
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={editing ? t('tokens.form.editTitle') : t('tokens.form.createTitle')}
      size={size}
      placement="left"
      destroyOnHidden
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{t('tokens.form.cancel')}</Button>
          <Button type="primary" loading={create.isPending || update.isPending} onClick={() => form.submit()}>
            {t('tokens.form.submit')}
          </Button>
        </Flex>
      }
    >
      <Form<TokenFormValues>
        form={form}
        name="token"
        layout="vertical"
        requiredMark={false}
        autoComplete="off"
        initialValues={token ? valuesFromToken(token) : NEW_TOKEN_VALUES}
        onFinish={submit}
      >
        <Form.Item
          name="name"
          label={t('tokens.form.name')}
          rules={[zodRule(tokenCreateSchema.shape.name)]}
          extra={editing ? undefined : t('tokens.form.batchNameHint')}
        >
          <Input placeholder={t('tokens.form.namePlaceholder')} />
        </Form.Item>

        <Form.Item
          label={t('tokens.form.quota')}
          htmlFor="token_remain_quota"
          extra={
            !unlimited && typeof quota === 'number'
              ? t('tokens.form.quotaHint', { value: formatQuota(quota) })
              : undefined
          }
        >
          <Form.Item name="remain_quota" noStyle>
            <InputNumber<number> min={0} precision={0} disabled={unlimited} style={{ width: '100%' }} />
          </Form.Item>
          <PresetButtons
            label={t('tokens.form.quotaPresets')}
            presets={QUOTA_BUTTONS}
            disabled={unlimited}
            onPick={(value) => form.setFieldValue('remain_quota', value)}
          />
        </Form.Item>

        <Form.Item
          label={t('tokens.form.unlimited')}
          htmlFor="token_unlimited_quota"
          extra={t('tokens.form.unlimitedHint')}
        >
          <Form.Item name="unlimited_quota" valuePropName="checked" noStyle>
            <Switch />
          </Form.Item>
        </Form.Item>

        {!editing && (
          <Form.Item label={t('tokens.form.count')} htmlFor="token_count">
            <Form.Item name="count" noStyle rules={[zodRule(tokenCreateSchema.shape.count)]}>
              <InputNumber<number> min={1} max={TOKEN_BATCH_MAX} precision={0} style={{ width: '100%' }} />
            </Form.Item>
            <PresetButtons
              label={t('tokens.form.countPresets')}
              presets={COUNT_BUTTONS}
              onPick={(value) => form.setFieldValue('count', value)}
            />
          </Form.Item>
        )}

        <Form.Item
          name="expiry"
          label={t('tokens.form.expiry')}
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                if (parseExpiry(value) === null) throw new Error(t('msg.expiryFormatError'));
              },
            },
          ]}
        >
          <ExpiryInput />
        </Form.Item>

        <Form.Item
          label={t('tokens.form.modelLimits')}
          htmlFor="token_model_limits_enabled"
          extra={t('tokens.form.modelLimitsHint')}
        >
          <Form.Item name="model_limits_enabled" valuePropName="checked" noStyle>
            <Switch />
          </Form.Item>
        </Form.Item>
        <Form.Item name="model_limits" label={t('tokens.form.models')}>
          <Select
            mode="multiple"
            allowClear
            disabled={!limitModels}
            loading={models.isPending && models.fetchStatus !== 'idle'}
            placeholder={t('tokens.form.modelsPlaceholder')}
            options={(models.data ?? []).map((name) => ({ value: name, label: name }))}
          />
        </Form.Item>

        <Form.Item name="allow_ips" label={t('tokens.form.allowIps')}>
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 6 }}
            placeholder={t('tokens.form.allowIpsPlaceholder')}
          />
        </Form.Item>

        <Form.Item name="group" label={t('tokens.form.group')}>
          <Select
            allowClear
            disabled={noGroups}
            loading={groups.isPending && groups.fetchStatus !== 'idle'}
            placeholder={noGroups ? t('tokens.form.noGroups') : t('tokens.form.groupPlaceholder')}
            options={groupOptions}
            optionRender={(option) => (
              <Space size={6}>
                <span>{option.data.value}</span>
                <Typography.Text type="secondary">{option.data.desc}</Typography.Text>
                <Tag style={{ marginInlineEnd: 0 }}>
                  {t('tokens.form.groupRatio', { ratio: option.data.ratio })}
                </Tag>
              </Space>
            )}
          />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
