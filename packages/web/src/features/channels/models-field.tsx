// The drawer's model list: a multi-select with free entries, and the buttons that fill it — the
// upstream's own list, the type's known models, and custom names typed as a comma list.
import { Button, Form, Input, Select, Space } from 'antd';
import { MSG } from '@sluice/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../components/feedback';
import { ApiError, translateServerMessage } from '../../lib/api';
import { fetchNewChannelModels, fetchStoredChannelModels } from './api';
import { addCustomModels, modelOptions } from './channel-form';
import { channelTypeOrDefault, prefilledModels } from './channel-type-table';
import type { ModelCatalog } from './channel-type-table';

export function ModelsField({
  type,
  catalog,
  channelId,
}: {
  type: number;
  catalog: ModelCatalog | undefined;
  /** Set when editing: the server asks the upstream with the stored key. */
  channelId?: number;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const form = Form.useFormInstance();
  const chosen = (Form.useWatch('models', form) as string[] | undefined) ?? [];
  const [custom, setCustom] = useState('');
  const [fetching, setFetching] = useState(false);

  // Read at click time: watched values reach this component a task later than the store.
  const current = () => ({
    type: (form.getFieldValue('type') as number | undefined) ?? type,
    models: (form.getFieldValue('models') as string[] | undefined) ?? [],
  });

  const setModels = (models: string[]) => {
    form.setFieldValue('models', models);
    void form.validateFields(['models']).catch(() => undefined);
  };

  const fetchList = async () => {
    if (!channelTypeOrDefault(current().type).fetchModels) {
      void message.error(t('msg.onlyOpenAIFormat'));
      return;
    }
    const text = String(form.getFieldValue('key') ?? '');
    // Service-account JSON spans lines: it goes whole and the server reads its first object.
    const key =
      channelTypeOrDefault(current().type).keyInput === 'serviceAccountJson'
        ? text.trim() || undefined
        : text
            .split(/\r?\n/)
            .map((line) => line.trim())
            .find((line) => line !== '');
    if (channelId === undefined && !key) {
      void message.error(t('channels.form.fillKey'));
      return;
    }
    setFetching(true);
    try {
      const answer =
        channelId === undefined
          ? await fetchNewChannelModels({
              type: current().type,
              base_url: String(form.getFieldValue('base_url') ?? ''),
              key: key ?? '',
            })
          : await fetchStoredChannelModels(channelId);
      setModels(answer.data);
      void message.success(t('channels.form.fetched', { count: answer.data.length }));
      // How to use the list, when the vendor's needs a word (Azure's deployments, Vertex's Claude models).
      if (answer.message !== '') void message.info(answer.message);
    } catch (error) {
      void message.error(fetchFailure(error));
    } finally {
      setFetching(false);
    }
  };

  /** The server's reason ("failed to get model list: <why>") in the chosen language. */
  const fetchFailure = (error: unknown): string => {
    if (!(error instanceof ApiError)) return t('msg.fetchModelsFailed');
    const prefix = `${MSG.fetchModelsFailed}: `;
    return error.message.startsWith(prefix)
      ? t('channels.form.fetchFailed', { reason: error.message.slice(prefix.length) })
      : translateServerMessage(error.message);
  };

  const addCustom = () => {
    const { models, added, duplicates } = addCustomModels(current().models, custom);
    if (duplicates.length > 0) void message.warning(t('channels.form.modelsExist'));
    if (added.length > 0) setModels(models);
    setCustom('');
  };

  return (
    <Form.Item label={t('channels.form.models')} required style={{ marginBottom: 16 }}>
      <Form.Item name="models" noStyle>
        <Select
          mode="tags"
          allowClear
          aria-label={t('channels.form.models')}
          placeholder={t('channels.form.modelsPlaceholder')}
          options={modelOptions(type, catalog, chosen).map((m) => ({ value: m, label: m }))}
          tokenSeparators={[',']}
          maxTagCount="responsive"
          style={{ width: '100%' }}
        />
      </Form.Item>
      <Space wrap size={8} style={{ marginTop: 8 }}>
        <Button size="small" loading={fetching} onClick={() => void fetchList()}>
          {t('channels.form.fetchModels')}
        </Button>
        <Button
          size="small"
          onClick={() => {
            const { type: now, models } = current();
            setModels([...new Set([...models, ...prefilledModels(now, catalog)])]);
          }}
        >
          {t('channels.form.fillRelated')}
        </Button>
        <Button size="small" onClick={() => setModels([])}>
          {t('channels.form.clearModels')}
        </Button>
      </Space>
      <Space.Compact style={{ width: '100%', marginTop: 8 }}>
        <Input
          aria-label={t('channels.form.customModels')}
          placeholder={t('channels.form.customPlaceholder')}
          value={custom}
          onChange={(e) => setCustom(e.target.value)}
          onPressEnter={(e) => {
            e.preventDefault();
            addCustom();
          }}
        />
        <Button onClick={addCustom}>{t('channels.form.addCustom')}</Button>
      </Space.Compact>
    </Form.Item>
  );
}
