// The channel drawer as an admin meets it at /channel/add and /channel/edit/:id: what a type switch
// changes, the key hints, the model buttons, every refusal message, and exactly what is sent.
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSections } from '../../i18n';
import { clearUser, setUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import { installFetch, ok } from '../../test/fake-fetch';
import type { FakeRoute, RecordedCall } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { ChannelDrawer } from './channel-drawer';
import { channel } from './test-fixtures';

const CATALOG = {
  '1': ['gpt-4o', 'gpt-4o-mini'],
  '14': ['claude-3-haiku-20240307'],
  '15': ['ERNIE-4.0-8K'],
  '41': ['gemini-1.5-pro-002'],
};

function serve(extra: Record<string, FakeRoute> = {}): RecordedCall[] {
  return installFetch({
    'GET /api/status': ok(DEFAULT_STATUS),
    'GET /api/group/': ok(['default', 'vip']),
    'GET /api/models': ok(CATALOG),
    'GET /api/channel/': ok([channel()]),
    'GET /api/channel/5': ok(channel()),
    'POST /api/channel/': ok({ ids: [9], count: 1 }),
    'PUT /api/channel/': ok(channel()),
    ...extra,
  });
}

const sent = (calls: RecordedCall[], method: string, path = '/api/channel/') =>
  calls.filter((c) => c.method === method && c.path === path).map((c) => c.body as Record<string, unknown>);

/** The drawer alone (the page's own tests cover the routes that open it). */
async function openDrawer(channelId?: number) {
  const closed = vi.fn();
  const saved = vi.fn();
  renderPage(<ChannelDrawer open channelId={channelId} onClose={closed} onSaved={saved} />, {
    path: '/channel/*',
    url: channelId ? `/channel/edit/${channelId}` : '/channel/add',
  });
  const drawer = await screen.findByRole('dialog');
  expect(within(drawer).getByText(channelId ? /Edit channel/ : /Add channel/)).toBeTruthy();
  return { drawer, closed, saved };
}

const submit = (drawer: HTMLElement) =>
  fireEvent.click(within(drawer).getByRole('button', { name: /Submit/ }));
const type = (drawer: HTMLElement, field: string, value: string) =>
  fireEvent.change(within(drawer).getByLabelText(field), { target: { value } });

async function chooseType(drawer: HTMLElement, label: string) {
  const select = within(drawer).getByRole('combobox', { name: 'Type' });
  fireEvent.mouseDown(select);
  fireEvent.change(select, { target: { value: label } });
  const option = await waitFor(() => {
    const found = screen.getAllByTitle(label).find((el) => el.classList.contains('ant-select-item-option'));
    if (!found) throw new Error(`no option ${label}`);
    return found;
  });
  fireEvent.click(option);
}

// A drawer full of antd fields takes a few seconds to render in happy-dom.
vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 5000 });

/** The hidden file input behind the upload button. */
const fileInput = (drawer: HTMLElement) =>
  waitFor(() => {
    const input = drawer.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no upload input');
    return input;
  });

beforeAll(() => loadSections());
beforeEach(() => {
  localStorage.clear();
  // The model catalog as an earlier visit left it (the server's answer replaces it).
  localStorage.setItem('channel_models', JSON.stringify(CATALOG));
  setUser({ id: 1, username: 'root', display_name: 'Root', role: 100, status: 1, group: 'default' });
});
afterEach(() => {
  cleanup();
  clearUser();
  vi.unstubAllGlobals();
});

describe('create', () => {
  it('refuses a channel without name and key, then without models, and sends nothing', async () => {
    const calls = serve();
    const { drawer } = await openDrawer();
    submit(drawer);
    expect(await screen.findByText('please fill channel name and key')).toBeTruthy();
    type(drawer, 'Name', 'main');
    type(drawer, 'Key', 'sk-one');
    submit(drawer);
    expect(await screen.findByText('please choose at least one model')).toBeTruthy();
    expect(sent(calls, 'POST')).toHaveLength(0);
  });

  it('says a model mapping that is not JSON is not a valid JSON string', async () => {
    const calls = serve();
    const { drawer } = await openDrawer();
    type(drawer, 'Model mapping', '{"gpt-4o":');
    submit(drawer);
    expect(await within(drawer).findByText('not a valid JSON string')).toBeTruthy();
    expect(sent(calls, 'POST')).toHaveLength(0);
    fireEvent.click(within(drawer).getAllByRole('button', { name: 'Fill template' })[0] as HTMLElement);
    await waitFor(() =>
      expect((within(drawer).getByLabelText('Model mapping') as HTMLTextAreaElement).value).toContain(
        '"gpt-3.5-turbo": "gpt-3.5-turbo-0125"',
      ),
    );
  });

  it('sends the defaults, the stripped base URL and the models; closes with channel created', async () => {
    const calls = serve();
    const { drawer, closed, saved } = await openDrawer();
    type(drawer, 'Name', ' main ');
    type(drawer, 'Key', 'sk-one\nsk-two');
    expect(await within(drawer).findByText('Channels to create: 2, one per key')).toBeTruthy();
    type(drawer, 'Base URL', 'https://up.example.com/');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Fill related models' }));
    submit(drawer);
    await waitFor(() => expect(sent(calls, 'POST')).toHaveLength(1));
    expect(sent(calls, 'POST')[0]).toEqual({
      name: 'main',
      type: 1,
      key: 'sk-one\nsk-two',
      openai_organization: '',
      max_input_tokens: 0,
      base_url: 'https://up.example.com',
      other: '',
      model_mapping: '',
      status_code_mapping: '',
      models: 'gpt-4o,gpt-4o-mini',
      group: 'default',
      auto_ban: 1,
      test_model: '',
      priority: 0,
      weight: 0,
      tag: '',
    });
    expect(await screen.findByText('channel created')).toBeTruthy();
    expect(saved).toHaveBeenCalledTimes(1);
    expect(closed).toHaveBeenCalledTimes(1);
  });
});

describe('type-driven behaviour', () => {
  it('prefills the Midjourney models and sends them', async () => {
    const calls = serve();
    const { drawer } = await openDrawer();
    await chooseType(drawer, 'Midjourney Proxy');
    type(drawer, 'Name', 'mj');
    type(drawer, 'Key', 'mj-secret');
    submit(drawer);
    await waitFor(() => expect(sent(calls, 'POST')).toHaveLength(1));
    expect(sent(calls, 'POST')[0]).toMatchObject({
      type: 2,
      models: 'mj_imagine,mj_variation,mj_reroll,mj_blend,mj_upscale,mj_describe,mj_uploads',
    });
  });

  it('gives Azure its API version and Spark its version in other', async () => {
    const calls = serve();
    const { drawer } = await openDrawer();
    expect(within(drawer).queryByLabelText('API version')).toBeNull();
    await chooseType(drawer, 'Azure OpenAI');
    await waitFor(() =>
      expect((within(drawer).getByLabelText('API version') as HTMLInputElement).value).toBe(
        '2023-06-01-preview',
      ),
    );
    await chooseType(drawer, 'iFlytek Spark');
    await waitFor(() =>
      expect((within(drawer).getByLabelText('Spark version') as HTMLInputElement).value).toBe('v2.1'),
    );
    expect(within(drawer).queryByLabelText('API version')).toBeNull();
    type(drawer, 'Name', 'spark');
    type(drawer, 'Key', 'app|secret|key');
    fireEvent.change(within(drawer).getByLabelText('Custom models'), { target: { value: 'SparkDesk-v3.5' } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Add' }));
    submit(drawer);
    await waitFor(() => expect(sent(calls, 'POST')).toHaveLength(1));
    expect(sent(calls, 'POST')[0]).toMatchObject({ type: 18, other: 'v2.1', models: 'SparkDesk-v3.5' });
  });

  it('shows the key format of the chosen type', async () => {
    serve();
    const { drawer } = await openDrawer();
    expect(within(drawer).getByText('One key per line creates one channel per key.')).toBeTruthy();
    await chooseType(drawer, 'Baidu Wenxin');
    expect(await within(drawer).findByText('Key format: APIKey|SecretKey')).toBeTruthy();
    await chooseType(drawer, 'Vertex AI');
    expect(
      await within(drawer).findByText("The service account's JSON key, as Google Cloud downloads it."),
    ).toBeTruthy();
    expect(
      within(drawer).getByText(
        'Several keys, one JSON object per line, create one channel each; so does uploading several files.',
      ),
    ).toBeTruthy();
    expect(within(drawer).getByRole('button', { name: /Upload service-account JSON files/ })).toBeTruthy();
    expect((within(drawer).getByLabelText('Region') as HTMLTextAreaElement).value).toBe('us-central1');
  });

  it.each([
    ['Anthropic Claude', 'An Anthropic API key, starting with sk-ant-.', 'sk-ant-…'],
    ['Google Gemini', 'A Google AI Studio API key, starting with AIza.', 'AIza…'],
    [
      'AWS Claude',
      'AccessKeyId|SecretAccessKey|region for an AWS access key, or apiKey|region for a Bedrock API key (region e.g. us-east-1).',
      'AccessKeyId|SecretAccessKey|us-east-1',
    ],
    [
      'Azure OpenAI',
      'The key of the Azure OpenAI resource (Keys and Endpoint in the Azure portal); the base URL is its endpoint, e.g. https://my-resource.openai.azure.com.',
      'Enter the key',
    ],
  ])('tells what the key of %s looks like', async (label, hint, placeholder) => {
    serve();
    const { drawer } = await openDrawer();
    await chooseType(drawer, label);
    expect(await within(drawer).findByText(hint)).toBeTruthy();
    expect(within(drawer).getByLabelText('Key').getAttribute('placeholder')).toBe(placeholder);
  });

  it('gives Azure the default API version as the placeholder of its field', async () => {
    serve();
    const { drawer } = await openDrawer();
    await chooseType(drawer, 'Azure OpenAI');
    const field = await within(drawer).findByLabelText('API version');
    expect(field.getAttribute('placeholder')).toBe('2023-06-01-preview');
  });

  it("asks the server for a new channel's model list, only for served types, and needs a key first", async () => {
    const calls = serve({ 'POST /api/channel/fetch_models': ok(['up-a', 'up-b']) });
    const { drawer } = await openDrawer();
    fireEvent.click(within(drawer).getByRole('button', { name: /Fetch model list$/ }));
    expect(await screen.findByText('please fill key')).toBeTruthy();
    type(drawer, 'Key', '\nsk-live\nsk-second');
    type(drawer, 'Base URL', 'https://up.example.com/');
    fireEvent.click(within(drawer).getByRole('button', { name: /Fetch model list$/ }));
    expect(await screen.findByText('Models fetched: 2')).toBeTruthy();
    // The browser never calls the upstream itself (it would be refused for its origin).
    expect(calls.every((c) => c.path.startsWith('/api/'))).toBe(true);
    expect(sent(calls, 'POST', '/api/channel/fetch_models')).toEqual([
      { type: 1, base_url: 'https://up.example.com/', key: 'sk-live' },
    ]);

    await chooseType(drawer, 'Baidu Wenxin');
    fireEvent.click(within(drawer).getByRole('button', { name: /Fetch model list$/ }));
    expect(await screen.findByText('only OpenAI format supported')).toBeTruthy();
    expect(sent(calls, 'POST', '/api/channel/fetch_models')).toHaveLength(1);
  });

  it("says why the model list could not be fetched, in the server's words", async () => {
    serve({
      'POST /api/channel/fetch_models': {
        body: {
          success: false,
          message: 'failed to get model list: upstream answered HTTP 401: bad key',
          data: null,
        },
      },
    });
    const { drawer } = await openDrawer();
    type(drawer, 'Key', 'sk-bad');
    fireEvent.click(within(drawer).getByRole('button', { name: /Fetch model list$/ }));
    expect(
      await screen.findByText('failed to get model list: upstream answered HTTP 401: bad key'),
    ).toBeTruthy();
  });

  it("sends a Vertex key file whole for the model list, and shows the server's word on it", async () => {
    const note = "Vertex lists Google's Gemini models; the Claude names of the catalog were added";
    const calls = serve({
      'POST /api/channel/fetch_models': { body: { success: true, message: note, data: ['gemini-2.5-pro'] } },
    });
    const { drawer } = await openDrawer();
    await chooseType(drawer, 'Vertex AI');
    const keyFile = '{\n  "type": "service_account",\n  "project_id": "p1"\n}';
    type(drawer, 'Key', keyFile);
    fireEvent.click(within(drawer).getByRole('button', { name: /Fetch model list$/ }));
    expect(await screen.findByText('Models fetched: 1')).toBeTruthy();
    expect(await screen.findByText(note)).toBeTruthy();
    expect(sent(calls, 'POST', '/api/channel/fetch_models')).toEqual([
      { type: 41, base_url: '', key: keyFile },
    ]);
  });

  it('adds custom models and warns about ones already chosen', async () => {
    const calls = serve();
    const { drawer } = await openDrawer();
    fireEvent.click(within(drawer).getByRole('button', { name: 'Fill related models' }));
    fireEvent.change(within(drawer).getByLabelText('Custom models'), {
      target: { value: 'gpt-4o, my-model' },
    });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('some models already exist')).toBeTruthy();
    type(drawer, 'Name', 'main');
    type(drawer, 'Key', 'sk-one');
    submit(drawer);
    await waitFor(() => expect(sent(calls, 'POST')).toHaveLength(1));
    expect(sent(calls, 'POST')[0]?.models).toBe('gpt-4o,gpt-4o-mini,my-model');
  });

  it('takes several service-account files as one Vertex channel each', async () => {
    const calls = serve();
    const { drawer } = await openDrawer();
    await chooseType(drawer, 'Vertex AI');
    const files = [
      new File(['{"type":"service_account","project_id":"p1"}'], 'one.json', { type: 'application/json' }),
      new File(['{ "type": "service_account", "project_id": "p2" }'], 'two.json', {
        type: 'application/json',
      }),
    ];
    fireEvent.change(await fileInput(drawer), {
      target: { files },
    });
    expect(await screen.findByText('Service-account keys loaded: 2')).toBeTruthy();
    expect(within(drawer).getByText('Channels to create: 2, one per key')).toBeTruthy();
    type(drawer, 'Name', 'vertex');
    submit(drawer);
    await waitFor(() => expect(sent(calls, 'POST')).toHaveLength(1));
    expect(sent(calls, 'POST')[0]).toMatchObject({
      type: 41,
      key: '{"type":"service_account","project_id":"p1"}\n{"type":"service_account","project_id":"p2"}',
    });
  });

  it('refuses an uploaded file that is not a JSON object', async () => {
    serve();
    const { drawer } = await openDrawer();
    await chooseType(drawer, 'Vertex AI');
    const files = [new File(['not json'], 'broken.json', { type: 'application/json' })];
    fireEvent.change(await fileInput(drawer), {
      target: { files },
    });
    expect(await screen.findByText('broken.json does not hold a JSON object')).toBeTruthy();
    expect((within(drawer).getByLabelText('Key') as HTMLTextAreaElement).value).toBe('');
  });

  it('keeps the model catalog under channel_models for the next visit', async () => {
    localStorage.removeItem('channel_models');
    serve();
    await openDrawer();
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem('channel_models') ?? 'null')).toEqual(CATALOG),
    );
  });
});

describe('types the relay cannot serve yet', () => {
  it('are marked in the type list, and only they', async () => {
    serve();
    const { drawer } = await openDrawer();
    const select = within(drawer).getByRole('combobox', { name: 'Type' });
    fireEvent.mouseDown(select);
    const option = (label: string) =>
      waitFor(() => {
        const found = screen
          .getAllByTitle(label)
          .find((el) => el.classList.contains('ant-select-item-option'));
        if (!found) throw new Error(`no option ${label}`);
        return found;
      });
    fireEvent.change(select, { target: { value: 'Baidu' } });
    expect(within(await option('Baidu Wenxin')).getByText('Not supported yet')).toBeTruthy();
    fireEvent.change(select, { target: { value: 'Anthropic' } });
    expect(within(await option('Anthropic Claude')).queryByText('Not supported yet')).toBeNull();
  });

  it('warn in the form and on saving, and the channel is still created', async () => {
    const calls = serve();
    const { drawer, saved } = await openDrawer();
    expect(within(drawer).queryByRole('alert')).toBeNull();
    await chooseType(drawer, 'Baidu Wenxin');
    expect(
      (await within(drawer).findByRole('alert')).textContent?.startsWith(
        'Calls cannot be relayed to Baidu Wenxin channels yet. You can save this channel to prepare it',
      ),
    ).toBe(true);
    type(drawer, 'Name', 'ernie');
    type(drawer, 'Key', 'api|secret');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Fill related models' }));
    submit(drawer);
    await waitFor(() => expect(sent(calls, 'POST')).toHaveLength(1));
    expect(sent(calls, 'POST')[0]).toMatchObject({ type: 15, models: 'ERNIE-4.0-8K' });
    expect(
      await screen.findByText('channel created, but calls cannot be relayed to Baidu Wenxin channels yet'),
    ).toBeTruthy();
    expect(screen.queryByText('channel created')).toBeNull();
    expect(saved).toHaveBeenCalledTimes(1);
  });

  it('warn when such a channel is saved again', async () => {
    const calls = serve({ 'GET /api/channel/5': ok(channel({ type: 23, name: 'hunyuan' })) });
    const { drawer } = await openDrawer(5);
    await waitFor(() =>
      expect((within(drawer).getByLabelText('Name') as HTMLInputElement).value).toBe('hunyuan'),
    );
    expect(within(drawer).getByRole('alert').textContent).toContain('Tencent Hunyuan');
    submit(drawer);
    await waitFor(() => expect(sent(calls, 'PUT')).toHaveLength(1));
    expect(
      await screen.findByText('channel updated, but calls cannot be relayed to Tencent Hunyuan channels yet'),
    ).toBeTruthy();
  });
});

describe('edit', () => {
  it('loads the channel, keeps the key when left empty and says channel updated', async () => {
    const calls = serve();
    const { drawer, closed } = await openDrawer(5);
    await waitFor(() =>
      expect((within(drawer).getByLabelText('Name') as HTMLInputElement).value).toBe('primary'),
    );
    expect((within(drawer).getByLabelText('Key') as HTMLTextAreaElement).value).toBe('');
    expect(within(drawer).getByText('Leave empty to keep the current key.')).toBeTruthy();
    type(drawer, 'Name', 'primary-2');
    submit(drawer);
    await waitFor(() => expect(sent(calls, 'PUT')).toHaveLength(1));
    const body = sent(calls, 'PUT')[0];
    expect(body).toMatchObject({
      id: 5,
      name: 'primary-2',
      models: 'gpt-4o,gpt-4o-mini',
      group: 'default,vip',
      priority: 3,
      weight: 2,
    });
    expect(body).not.toHaveProperty('key');
    expect(await screen.findByText('channel updated')).toBeTruthy();
    expect(closed).toHaveBeenCalledTimes(1);
  });

  it('asks the server for the upstream model list with the stored key', async () => {
    const calls = serve({ 'GET /api/channel/fetch_models/5': ok(['srv-a']) });
    const { drawer } = await openDrawer(5);
    await waitFor(() =>
      expect((within(drawer).getByLabelText('Name') as HTMLInputElement).value).toBe('primary'),
    );
    fireEvent.click(within(drawer).getByRole('button', { name: /Fetch model list$/ }));
    expect(await screen.findByText('Models fetched: 1')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/channel/fetch_models/5')).toBe(true);
  });
});
