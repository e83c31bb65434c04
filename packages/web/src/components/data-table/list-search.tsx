// The search row above a list: the page's own fields, a query button and a reset button. Submitting
// trims the values and starts again at page 1.
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Form, Space } from 'antd';
import type { ReactNode } from 'react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListFilters, ListState } from './use-list';

export function ListSearch<T>({
  list,
  children,
  extra,
}: {
  list: ListState<T>;
  /** Form.Items named after the list's filters. */
  children: ReactNode;
  /** Buttons on the right (add, batch actions…). */
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ListFilters>();

  /** What the user last submitted, until the list's filters catch up with it. */
  const submitted = useRef<ListFilters | null>(null);

  // Back/forward and reset change the filters; the fields follow. The filters catching up with the
  // user's own search leave the fields alone: what was typed since (while the search was under way)
  // stays.
  const filters = JSON.stringify(list.filters);
  useEffect(() => {
    const own = submitted.current;
    submitted.current = null;
    const current = JSON.parse(filters) as ListFilters;
    if (own && Object.entries(current).every(([name, value]) => (own[name] ?? '') === value)) return;
    form.setFieldsValue(current);
  }, [form, filters]);

  const submit = (values: Record<string, unknown>) => {
    const next: ListFilters = {};
    for (const [name, value] of Object.entries(values)) {
      next[name] = value === undefined || value === null ? '' : String(value).trim();
    }
    submitted.current = next;
    list.search(next);
  };

  return (
    <div
      style={{ display: 'flex', flexWrap: 'wrap', gap: 8, justifyContent: 'space-between', marginBottom: 16 }}
    >
      <Form form={form} layout="inline" initialValues={list.filters} onFinish={submit} style={{ rowGap: 8 }}>
        {children}
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            {t('table.query')}
          </Button>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => {
              form.resetFields();
              submitted.current = null;
              list.search({});
            }}
          >
            {t('table.reset')}
          </Button>
        </Space>
      </Form>
      {extra && <Space wrap>{extra}</Space>}
    </div>
  );
}
