// The playground's side panel: group, model, temperature, max tokens and system prompt.
import { Empty, Form, Input, InputNumber, Select, Slider, Space, Typography } from 'antd';
import type { UserGroups } from '@sluice/shared';
import { useTranslation } from 'react-i18next';
import type { PlaygroundSettings } from './chat-state';

export const TEMPERATURE_RANGE = { min: 0.1, max: 1, step: 0.1 } as const;

export interface SettingsPanelProps {
  settings: PlaygroundSettings;
  onChange(change: Partial<PlaygroundSettings>): void;
  groups: UserGroups;
  groupsLoading: boolean;
  models: string[];
  modelsLoading: boolean;
}

export function SettingsPanel(props: SettingsPanelProps) {
  const { settings, onChange, groups, models } = props;
  const { t } = useTranslation();
  const groupOptions = Object.entries(groups).map(([group, { ratio, desc }]) => ({
    value: group,
    label: (
      <Space size={4}>
        <span>{t('playground.groupOption', { group, ratio })}</span>
        {desc && desc !== group && <Typography.Text type="secondary">{desc}</Typography.Text>}
      </Space>
    ),
  }));

  return (
    <Form layout="vertical" component="div">
      <Form.Item label={t('playground.group')} htmlFor="playground-group">
        <Select
          id="playground-group"
          value={settings.group || undefined}
          loading={props.groupsLoading}
          options={groupOptions}
          onChange={(group: string) => onChange({ group })}
        />
      </Form.Item>
      <Form.Item label={t('playground.model')} htmlFor="playground-model">
        <Select
          id="playground-model"
          showSearch
          value={settings.model || undefined}
          placeholder={t('playground.modelPlaceholder')}
          loading={props.modelsLoading}
          options={models.map((m) => ({ value: m, label: m }))}
          notFoundContent={
            props.modelsLoading ? undefined : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('playground.noModels')} />
            )
          }
          onChange={(model: string) => onChange({ model })}
        />
      </Form.Item>
      <Form.Item
        label={
          <Space>
            <span>{t('playground.temperature')}</span>
            <Typography.Text type="secondary">{settings.temperature}</Typography.Text>
          </Space>
        }
      >
        <Slider
          {...TEMPERATURE_RANGE}
          aria-label={t('playground.temperature')}
          value={settings.temperature}
          onChange={(temperature: number) => onChange({ temperature })}
        />
      </Form.Item>
      <Form.Item
        label={t('playground.maxTokens')}
        htmlFor="playground-max-tokens"
        extra={t('playground.maxTokensHint')}
      >
        <InputNumber
          id="playground-max-tokens"
          min={0}
          precision={0}
          style={{ width: '100%' }}
          value={settings.maxTokens}
          onChange={(value) => onChange({ maxTokens: typeof value === 'number' ? value : 0 })}
        />
      </Form.Item>
      <Form.Item label={t('playground.systemPrompt')} htmlFor="playground-system">
        <Input.TextArea
          id="playground-system"
          autoSize={{ minRows: 3, maxRows: 10 }}
          placeholder={t('playground.systemPromptPlaceholder')}
          value={settings.systemPrompt}
          onChange={(e) => onChange({ systemPrompt: e.target.value })}
        />
      </Form.Item>
    </Form>
  );
}
