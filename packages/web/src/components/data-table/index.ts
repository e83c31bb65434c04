/**
 * The list-page kit. A list page is: a fetcher, columns, a route.
 *
 *   const list = useList<PublicUser>({
 *     id: 'users',                                  // cache key + remembered page size
 *     filters: { keyword: '', group: '' },          // URL query names and defaults
 *     rowKey: (u) => u.id,
 *     fetchPage: ({ page, pageSize, filters, signal }) =>
 *       filters.keyword || filters.group
 *         ? api.get('/api/user/search', { p: page, page_size: pageSize, ...filters }, { signal })
 *         : api.get('/api/user/', { p: page, page_size: pageSize }, { signal }),
 *   });
 *
 *   <ListSearch list={list} extra={<Button onClick={openAdd}>Add</Button>}>
 *     <Form.Item name="keyword"><Input allowClear placeholder="…" /></Form.Item>
 *   </ListSearch>
 *   <DataTable list={list} columns={columns} selectable />
 *
 * - fetchPage answers a bare array (no total: the pagination offers one page past the last full
 *   page and fetches it only when the user goes there) or { items, total }.
 * - Page and filters live in the URL (?page=2&keyword=x), so reload and back/forward keep them;
 *   page sizes 10/20/50/100, remembered per list in local storage (`page-size:<id>`).
 * - After a row action: list.updateRow(id, { status }) or list.removeRow(id); after a create:
 *   list.refresh(). Selection across pages: list.selectedKeys / list.selectedRows.
 */
export { DataTable } from './data-table';
export type { DataTableProps } from './data-table';
export { ListSearch } from './list-search';
export { useList, knownPageCount, PAGE_SIZE_OPTIONS, DEFAULT_PAGE_SIZE } from './use-list';
export type { ListAnswer, ListFetchArgs, ListFilters, ListState, UseListOptions } from './use-list';
