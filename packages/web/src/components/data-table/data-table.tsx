// antd's Table wired to a useList state: pagination (10/20/50/100), loading, selection, a retry
// row when loading failed, and horizontal scrolling on narrow screens.
import { Button, Empty, Table } from 'antd';
import type { TableColumnsType, TableProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListState } from './use-list';
import { PAGE_SIZE_OPTIONS } from './use-list';

export interface DataTableProps<T> {
  list: ListState<T>;
  columns: TableColumnsType<T>;
  /** Show checkboxes; the choice is in list.selectedKeys / list.selectedRows. */
  selectable?: boolean;
  /** Rows that cannot be selected (e.g. deregistered users). */
  isRowSelectable?: (row: T) => boolean;
  /** Anything else antd's Table takes (expandable rows, row class names, size…). */
  tableProps?: Omit<
    TableProps<T>,
    'dataSource' | 'columns' | 'pagination' | 'loading' | 'rowKey' | 'rowSelection'
  >;
  emptyText?: ReactNode;
}

export function DataTable<T extends object>({
  list,
  columns,
  selectable,
  isRowSelectable,
  tableProps,
  emptyText,
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const empty = list.failed ? (
    <Empty description={t('table.loadFailed')}>
      <Button onClick={() => void list.refresh()}>{t('common.retry')}</Button>
    </Empty>
  ) : (
    (emptyText ?? <Empty description={t('table.empty')} />)
  );

  return (
    <Table<T>
      size="middle"
      scroll={{ x: 'max-content' }}
      {...tableProps}
      columns={columns}
      dataSource={list.rows}
      rowKey={list.rowKey}
      loading={list.fetching}
      locale={{ emptyText: empty }}
      rowSelection={
        selectable
          ? {
              selectedRowKeys: list.selectedKeys,
              preserveSelectedRowKeys: true,
              onChange: (keys, rows) => list.setSelection(keys, rows),
              getCheckboxProps: isRowSelectable ? (row) => ({ disabled: !isRowSelectable(row) }) : undefined,
            }
          : undefined
      }
      pagination={{
        current: list.page,
        pageSize: list.pageSize,
        total: list.total,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
        showTotal: list.totalKnown ? (total) => t('table.total', { count: total }) : undefined,
        onChange: (page, size) => {
          if (size !== list.pageSize) list.setPageSize(size);
          else list.setPage(page);
        },
      }}
    />
  );
}
