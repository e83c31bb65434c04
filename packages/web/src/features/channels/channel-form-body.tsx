// The fields of the channel drawer. What differs per type (extra input in `other`, key hint and
// upload, organization, base URL placeholder, prefilled models, the "not supported yet" mark of a type
// the relay cannot serve) comes from the type table.
import { Alert, Col, Form, Input, InputNumber, Row, Select, Space, Switch, Tag } from 'antd';
import type { FormInstance } from 'antd';
import { channelCreateSchema } from '@sluice/shared';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../lib/form-rules';
import { useChannelGroups, useModelCatalog } from './api';
import { MODEL_MAPPING_TEMPLATE, STATUS_CODE_MAPPING_TEMPLATE, applyTypeChange } from './channel-form';
import type { ChannelFormValues } from './channel-form';
import { typeName } from './channel-display';
import { CHANNEL_TYPE_TABLE, channelTypeOrDefault, isServedType } from './channel-type-table';
import { JsonTextField } from './json-text-field';
import { KeyField } from './key-field';
import { ModelsField } from './models-field';

// The server's own field rules (integers, the priority floor, non-negative token limit).
const fields = channelCreateSchema.in.shape;

export function ChannelFormBody({
  form,
  initial,
  channelId,
  onFinish,
  onFinishFailed,
}: {
  form: FormInstance<ChannelFormValues>;
  initial: ChannelFormValues;
  channelId?: number;
  onFinish(): void;
  onFinishFailed(): void;
}) {
  const { t } = useTranslation();
  const catalog = useModelCatalog().data;
  const groups = useChannelGroups();
  const watchedType = Form.useWatch('type', form) as number | undefined;
  const type = watchedType ?? initial.type;
  // The type before a switch decides whether the models were still that type's prefill.
  const previousType = useRef(initial.type);
  const row = channelTypeOrDefault(type);
  const isEdit = channelId !== undefined;

  const onTypeChange = (next: number) => {
    const models = (form.getFieldValue('models') as string[] | undefined) ?? [];
    form.setFieldsValue(applyTypeChange({ type: previousType.current, models }, next, catalog));
    previousType.current = next;
  };

  const notSupported = t('channels.support.notSupported');
  // The label stays the vendor's name (what the search matches and the field shows once chosen); a
  // type the relay cannot serve gets its mark beside it, and screen readers hear it as a description.
  const typeOptions = CHANNEL_TYPE_TABLE.map((entry) => ({
    value: entry.value,
    label: typeName(t, entry.value),
    ...(entry.served ? {} : { 'aria-description': notSupported }),
  }));

  return (
    <Form<ChannelFormValues>
      form={form}
      layout="vertical"
      initialValues={initial}
      onFinish={onFinish}
      onFinishFailed={onFinishFailed}
      requiredMark={false}
      autoComplete="off"
    >
      <Form.Item name="name" label={t('channels.form.name')} required>
        <Input placeholder={t('channels.form.namePlaceholder')} />
      </Form.Item>
      <Form.Item name="type" label={t('channels.form.type')}>
        <Select
          showSearch
          optionFilterProp="label"
          options={typeOptions}
          onChange={onTypeChange}
          optionRender={(option) => (
            <Space size={8}>
              <span>{option.label}</span>
              {isServedType(Number(option.value)) ? null : (
                <Tag color="warning" style={{ marginInlineEnd: 0 }}>
                  {notSupported}
                </Tag>
              )}
            </Space>
          )}
        />
      </Form.Item>
      {!isServedType(type) && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          title={t('channels.support.formWarning', { type: typeName(t, type) })}
          style={{ marginTop: -8, marginBottom: 16 }}
        />
      )}
      {row.other && (
        <Form.Item
          name="other"
          label={t(`channels.other.${row.other.kind}.label`)}
          extra={t(`channels.other.${row.other.kind}.help`)}
        >
          {row.other.multiline ? (
            <Input.TextArea autoSize={{ minRows: 1, maxRows: 8 }} placeholder={row.other.defaultFor([])} />
          ) : (
            <Input placeholder={row.other.defaultFor([])} />
          )}
        </Form.Item>
      )}
      <Form.Item name="base_url" label={t('channels.form.baseUrl')} extra={t('channels.form.baseUrlHelp')}>
        <Input
          placeholder={
            row.baseUrlPlaceholder
              ? t('channels.form.baseUrlDefault', { url: row.baseUrlPlaceholder })
              : t('channels.form.baseUrlPlaceholder')
          }
        />
      </Form.Item>
      <KeyField type={type} isEdit={isEdit} />
      {row.organization && (
        <Form.Item
          name="openai_organization"
          label={t('channels.form.organization')}
          extra={t('channels.form.organizationHelp')}
        >
          <Input placeholder="org-…" />
        </Form.Item>
      )}
      <ModelsField type={type} catalog={catalog} channelId={channelId} />
      <JsonTextField
        name="model_mapping"
        label={t('channels.form.modelMapping')}
        help={t('channels.form.modelMappingHelp')}
        template={MODEL_MAPPING_TEMPLATE}
        rules={[zodRule(fields.model_mapping)]}
      />
      <Form.Item name="groups" label={t('channels.form.groups')}>
        <Select
          mode="tags"
          loading={groups.isPending}
          placeholder={t('channels.form.groupsPlaceholder')}
          options={(groups.data ?? []).map((g) => ({ value: g, label: g }))}
        />
      </Form.Item>
      <JsonTextField
        name="status_code_mapping"
        label={t('channels.form.statusCodeMapping')}
        help={t('channels.form.statusCodeMappingHelp')}
        template={STATUS_CODE_MAPPING_TEMPLATE}
        rules={[zodRule(fields.status_code_mapping)]}
      />
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item
            name="test_model"
            label={t('channels.form.testModel')}
            extra={t('channels.form.testModelHelp')}
          >
            <Input placeholder="gpt-4o-mini" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="max_input_tokens"
            label={t('channels.form.maxInputTokens')}
            extra={t('channels.form.maxInputTokensHelp')}
            rules={[zodRule(fields.max_input_tokens)]}
          >
            <InputNumber min={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12} sm={8}>
          <Form.Item name="priority" label={t('channels.form.priority')} rules={[zodRule(fields.priority)]}>
            <InputNumber style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12} sm={8}>
          <Form.Item name="weight" label={t('channels.form.weight')} rules={[zodRule(fields.weight)]}>
            <InputNumber style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={8}>
          <Form.Item name="auto_ban" label={t('channels.form.autoBan')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="tag" label={t('channels.form.tag')} extra={t('channels.form.tagHelp')}>
        <Input placeholder={t('channels.form.tagPlaceholder')} />
      </Form.Item>
    </Form>
  );
}
