// The list kit as a list page uses it: one request per visited page, the next page fetched only when
// the user goes there, page size remembered, filters and page in the URL.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../test/render';
import { Form, Input } from 'antd';
import { DataTable, ListSearch, knownPageCount, useList } from './index';
import type { ListFetchArgs, ListFilters } from './index';

interface Row {
  id: number;
  name: string;
}

const rows = (from: number, count: number): Row[] =>
  Array.from({ length: count }, (_, i) => ({ id: from + i, name: `row ${from + i}` }));

function Harness({ fetchPage }: { fetchPage: (args: ListFetchArgs) => Promise<Row[]> }) {
  const list = useList<Row>({ id: 'test', fetchPage, rowKey: (r) => r.id, filters: { keyword: '' } });
  return (
    <>
      <button onClick={() => list.setPageSize(20)}>twenty per page</button>
      <button onClick={() => list.search({ keyword: 'abc' })}>search abc</button>
      <DataTable list={list} columns={[{ title: 'Name', dataIndex: 'name' }]} />
    </>
  );
}

beforeEach(() => localStorage.clear());
afterEach(() => cleanup());

describe('knownPageCount', () => {
  it('offers one page past the last full page, and stops at a short one', () => {
    expect(knownPageCount([], 10)).toBe(1);
    expect(knownPageCount([{ page: 0, count: 10 }], 10)).toBe(2);
    expect(
      knownPageCount(
        [
          { page: 0, count: 10 },
          { page: 1, count: 10 },
        ],
        10,
      ),
    ).toBe(3);
    expect(
      knownPageCount(
        [
          { page: 0, count: 10 },
          { page: 1, count: 4 },
        ],
        10,
      ),
    ).toBe(2);
    expect(knownPageCount([{ page: 0, count: 3 }], 10)).toBe(1);
  });
});

describe('DataTable with useList', () => {
  it('fetches the next page only when the user moves past the last loaded one', async () => {
    // 10 + 10 + 5 rows on the server.
    const fetchPage = vi.fn(async ({ page, pageSize }: ListFetchArgs) =>
      page < 2 ? rows(page * pageSize + 1, pageSize) : rows(21, 5),
    );
    const { router } = renderPage(<Harness fetchPage={fetchPage} />, { path: '/list' });
    expect(await screen.findByText('row 1')).toBeTruthy();
    expect(fetchPage).toHaveBeenCalledTimes(1);
    expect(fetchPage.mock.calls[0]?.[0]).toMatchObject({ page: 0, pageSize: 10 });
    expect(screen.queryByTitle('3')).toBeNull();

    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('row 11')).toBeTruthy();
    expect(fetchPage).toHaveBeenCalledTimes(2);
    expect(fetchPage.mock.calls[1]?.[0]).toMatchObject({ page: 1 });
    expect(router.state.location.search).toBe('?page=2');

    fireEvent.click(await screen.findByTitle('3'));
    expect(await screen.findByText('row 25')).toBeTruthy();
    // The third page was short: there is no fourth.
    expect(screen.queryByTitle('4')).toBeNull();

    // Going back uses the page already loaded.
    fireEvent.click(screen.getByTitle('1'));
    expect(await screen.findByText('row 1')).toBeTruthy();
    expect(fetchPage).toHaveBeenCalledTimes(3);
  });

  it('remembers the page size for the list and starts again from the first page', async () => {
    const fetchPage = vi.fn(async ({ page, pageSize }: ListFetchArgs) => rows(page * pageSize + 1, pageSize));
    renderPage(<Harness fetchPage={fetchPage} />, { path: '/list', url: '/list?page=2' });
    expect(await screen.findByText('row 11')).toBeTruthy();
    fireEvent.click(screen.getByText('twenty per page'));
    expect(await screen.findByText('row 20')).toBeTruthy();
    expect(localStorage.getItem('page-size:test')).toBe('20');
    expect(fetchPage.mock.calls.at(-1)?.[0]).toMatchObject({ page: 0, pageSize: 20 });
  });

  it('puts the search in the URL and asks the server with it from page 1', async () => {
    const fetchPage = vi.fn(async ({ page, pageSize }: ListFetchArgs) => rows(page * pageSize + 1, 3));
    const { router } = renderPage(<Harness fetchPage={fetchPage} />, { path: '/list' });
    await screen.findByText('row 1');
    fireEvent.click(screen.getByText('search abc'));
    await waitFor(() => expect(router.state.location.search).toBe('?keyword=abc'));
    await waitFor(() =>
      expect(fetchPage.mock.calls.at(-1)?.[0]).toMatchObject({ page: 0, filters: { keyword: 'abc' } }),
    );
  });
});

describe('ListSearch', () => {
  /** A list page's search row; `duringSearch` runs while a submitted search is still on its way. */
  function SearchHarness({ duringSearch }: { duringSearch: () => void }) {
    const list = useList<Row>({
      id: 'search',
      fetchPage: async () => rows(1, 1),
      rowKey: (r) => r.id,
      filters: { keyword: '' },
    });
    const search = (filters: ListFilters) => {
      list.search(filters);
      duringSearch();
    };
    return (
      <>
        <ListSearch list={{ ...list, search }}>
          <Form.Item name="keyword">
            <Input aria-label="keyword" />
          </Form.Item>
        </ListSearch>
        <output aria-label="filters">{list.filters.keyword}</output>
      </>
    );
  }

  it('keeps what the user typed while a search was under way, and follows back and forward', async () => {
    const field = () => screen.getByLabelText<HTMLInputElement>('keyword');
    let typeMore = true;
    const { router } = renderPage(
      <SearchHarness
        duringSearch={() => {
          if (typeMore) fireEvent.change(field(), { target: { value: 'abcd' } });
        }}
      />,
      { path: '/list' },
    );
    fireEvent.change(field(), { target: { value: 'abc' } });
    fireEvent.click(screen.getByRole('button', { name: /query/i }));
    await waitFor(() => expect(router.state.location.search).toBe('?keyword=abc'));
    await waitFor(() => expect(screen.getByLabelText('filters').textContent).toBe('abc'));
    // The URL caught up with the search; the newer text is still in the field.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(field().value).toBe('abcd');

    typeMore = false;
    fireEvent.click(screen.getByRole('button', { name: /query/i }));
    await waitFor(() => expect(router.state.location.search).toBe('?keyword=abcd'));
    // The page has drawn the new filters before the user goes back (the router's state can run ahead
    // of the render; back at once would fold both changes into none).
    await waitFor(() => expect(screen.getByLabelText('filters').textContent).toBe('abcd'));
    await router.navigate(-1);
    await waitFor(() => expect(field().value).toBe('abc'));
    await router.navigate(1);
    await waitFor(() => expect(field().value).toBe('abcd'));
  });
});
