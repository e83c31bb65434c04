// The channel drawer's rules without the screen: what a type switch fills in, custom models, batch
// key counting, and every reason the spec gives for refusing a submit.
import { describe, expect, it } from 'vitest';
import {
  NEW_CHANNEL_DEFAULTS,
  addCustomModels,
  applyTypeChange,
  buildChannelPayload,
  countKeys,
} from './channel-form';
import type { ChannelFormValues } from './channel-form';
import { channelTypeUi, defaultOther, isServedType, vertexRegionFor } from './channel-type-table';
import { buildTagEdit, tagFormInitial } from './tag-form';

const MJ = ['mj_imagine', 'mj_variation', 'mj_reroll', 'mj_blend', 'mj_upscale', 'mj_describe', 'mj_uploads'];
const MJ_PLUS = [
  ...MJ,
  'swap_face',
  'mj_zoom',
  'mj_shorten',
  'mj_modal',
  'mj_inpaint',
  'mj_custom_zoom',
  'mj_high_variation',
  'mj_low_variation',
  'mj_pan',
];
const CATALOG = { '1': ['gpt-4o', 'gpt-4o-mini'], '14': ['claude-3-haiku-20240307'], '2': ['ignored'] };

const form = (over: Partial<ChannelFormValues> = {}): ChannelFormValues => ({
  ...NEW_CHANNEL_DEFAULTS,
  name: 'main',
  key: 'sk-one',
  models: ['gpt-4o'],
  ...over,
});

const refusal = (values: ChannelFormValues, id?: number) => {
  const result = buildChannelPayload(values, id);
  if (result.ok) throw new Error('expected a refusal');
  return result.error;
};

const payload = (values: ChannelFormValues, id?: number) => {
  const result = buildChannelPayload(values, id);
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.error)}`);
  return result.payload;
};

describe('new channel defaults', () => {
  it('are type 1, group default, auto-ban on, priority 0 and weight 0', () => {
    expect(NEW_CHANNEL_DEFAULTS).toMatchObject({
      type: 1,
      groups: ['default'],
      auto_ban: true,
      priority: 0,
      weight: 0,
    });
    const sent = payload(form());
    expect(sent).toMatchObject({ type: 1, group: 'default', auto_ban: 1, priority: 0, weight: 0 });
  });
});

describe('type switch', () => {
  it('prefills the image-generation and music types with the spec lists', () => {
    expect(applyTypeChange({ type: 1, models: [] }, 2, CATALOG).models).toEqual(MJ);
    expect(applyTypeChange({ type: 1, models: [] }, 5, CATALOG).models).toEqual(MJ_PLUS);
    expect(applyTypeChange({ type: 1, models: [] }, 36, CATALOG).models).toEqual([
      'suno_music',
      'suno_lyrics',
    ]);
  });

  it('prefills other types from the model catalog, and nothing for a type it does not list', () => {
    expect(applyTypeChange({ type: 2, models: MJ }, 1, CATALOG).models).toEqual(['gpt-4o', 'gpt-4o-mini']);
    expect(applyTypeChange({ type: 1, models: [] }, 8, CATALOG).models).toEqual([]);
  });

  it('keeps models the operator chose, replacing only the previous type prefill', () => {
    const own = ['my-model'];
    expect(applyTypeChange({ type: 1, models: own }, 2, CATALOG).models).toEqual(own);
    expect(applyTypeChange({ type: 1, models: ['gpt-4o-mini', 'gpt-4o'] }, 14, CATALOG).models).toEqual([
      'claude-3-haiku-20240307',
    ]);
  });

  it('sets other to the new type default: Azure API version, Spark version, Vertex region', () => {
    expect(applyTypeChange({ type: 1, models: [] }, 3, CATALOG).other).toBe('2023-06-01-preview');
    expect(applyTypeChange({ type: 3, models: [] }, 18, CATALOG).other).toBe('v2.1');
    expect(applyTypeChange({ type: 18, models: [] }, 1, CATALOG).other).toBe('');
    expect(applyTypeChange({ type: 1, models: [] }, 41, { '41': ['gemini-1.5-pro-002'] }).other).toBe(
      'us-central1',
    );
  });
});

describe('Vertex region default', () => {
  it('is us-central1, europe-west1 for Claude-family models, a map when both are served', () => {
    expect(vertexRegionFor([])).toBe('us-central1');
    expect(vertexRegionFor(['gemini-1.5-pro-002'])).toBe('us-central1');
    expect(vertexRegionFor(['claude-3-5-sonnet-20241022'])).toBe('europe-west1');
    expect(JSON.parse(vertexRegionFor(['gemini-1.5-pro-002', 'claude-3-haiku-20240307']))).toEqual({
      default: 'us-central1',
      'claude-3-haiku-20240307': 'europe-west1',
    });
  });
});

describe('key hints come from the type table', () => {
  it('gives the spec key formats', () => {
    expect(channelTypeUi(15)?.keyFormat).toBe('APIKey|SecretKey');
    expect(channelTypeUi(18)?.keyFormat).toBe('APPID|APISecret|APIKey');
    expect(channelTypeUi(22)?.keyFormat).toBe('APIKey-AppId');
    expect(channelTypeUi(23)?.keyFormat).toBe('AppId|SecretId|SecretKey');
    expect(channelTypeUi(33)?.keyFormat).toBe('AccessKeyId|SecretAccessKey|Region or APIKey|Region');
    expect(channelTypeUi(41)?.keyInput).toBe('serviceAccountJson');
    expect(channelTypeUi(1)?.keyFormat).toBeUndefined();
    expect(channelTypeUi(99)).toBeUndefined();
  });
});

describe('which types the relay serves', () => {
  it('marks Baidu, FastGPT and unknown numbers as not served; OpenAI, Claude, Gemini, Midjourney and Suno as served', () => {
    for (const type of [1, 14, 24, 2, 5, 36]) expect(channelTypeUi(type)?.served, `type ${type}`).toBe(true);
    for (const type of [15, 22]) expect(channelTypeUi(type)?.served, `type ${type}`).toBe(false);
    expect(isServedType(99)).toBe(false);
  });

  it('offers no upstream model list for the task types, whose models are their fixed actions', () => {
    for (const type of [2, 5, 36]) expect(channelTypeUi(type)?.fetchModels, `type ${type}`).toBe(false);
    for (const type of [1, 14, 24]) expect(channelTypeUi(type)?.fetchModels, `type ${type}`).toBe(true);
  });
});

describe('custom models', () => {
  it('adds new names from a comma list and reports the ones already there', () => {
    const result = addCustomModels(['gpt-4o'], ' my-a, gpt-4o ,my-b,my-a ');
    expect(result.models).toEqual(['gpt-4o', 'my-a', 'my-b']);
    expect(result.duplicates).toEqual(['gpt-4o']);
    expect(addCustomModels(['a'], 'b').duplicates).toEqual([]);
  });
});

describe('batch keys', () => {
  it('counts one channel per distinct key line, or per service-account object', () => {
    expect(countKeys(1, 'k1\n\n k2 \nk1\n')).toBe(2);
    expect(countKeys(1, '   ')).toBe(0);
    expect(countKeys(41, '{"a":1}\n{"b":2}')).toBe(2);
    expect(countKeys(41, '[{"a":1},{"b":2},{"c":3}]')).toBe(3);
    expect(countKeys(41, '{"a":1}')).toBe(1);
  });
});

describe('submit', () => {
  it('needs a name and, on create, a key', () => {
    expect(refusal(form({ name: '  ' }))).toEqual({ key: 'msg.fillChannelNameAndKey' });
    expect(refusal(form({ key: '' }))).toEqual({ key: 'msg.fillChannelNameAndKey' });
    // Editing keeps the stored key when the field is empty.
    expect(payload(form({ key: '' }), 7)).not.toHaveProperty('key');
  });

  it('needs at least one model', () => {
    expect(refusal(form({ models: [] }))).toEqual({ key: 'msg.chooseAtLeastOneModel' });
  });

  it('refuses models that are not a list: a second submit', () => {
    expect(refusal(form({ models: 'gpt-4o' as unknown as string[] }))).toEqual({
      key: 'channels.form.submitTwice',
    });
  });

  it('needs model_mapping to be a JSON object', () => {
    expect(refusal(form({ model_mapping: '{"a":' }))).toEqual({ key: 'msg.notValidJson' });
    expect(refusal(form({ model_mapping: '["a"]' }))).toEqual({ key: 'msg.notValidJson' });
    expect(payload(form({ model_mapping: ' {"gpt-4o":"gpt-4o-2024-08-06"} ' })).model_mapping).toBe(
      '{"gpt-4o":"gpt-4o-2024-08-06"}',
    );
  });

  it('checks status_code_mapping and the integers with the server schema', () => {
    expect(refusal(form({ status_code_mapping: 'oops' }))).toEqual({ serverText: 'not a valid JSON string' });
    expect(refusal(form({ priority: 1.5 }))).toEqual({ serverText: 'priority must be an integer' });
    expect(refusal(form({ priority: -1000 }))).toEqual({ serverText: 'priority must not be less than -999' });
  });

  it('strips trailing slashes from base_url and sends lists as comma strings', () => {
    const sent = payload(
      form({ base_url: ' https://up.example.com/// ', models: ['a', 'b'], groups: ['default', 'vip'] }),
    );
    expect(sent.base_url).toBe('https://up.example.com');
    expect(sent.models).toBe('a,b');
    expect(sent.group).toBe('default,vip');
  });

  it('fills the type default into an empty other', () => {
    expect(payload(form({ type: 3 })).other).toBe('2023-06-01-preview');
    expect(payload(form({ type: 18 })).other).toBe('v2.1');
    expect(
      payload(form({ type: 41, key: '{"type":"service_account"}', models: ['claude-3-haiku-20240307'] }))
        .other,
    ).toBe('europe-west1');
    expect(payload(form({ type: 3, other: '2024-02-01' })).other).toBe('2024-02-01');
    expect(defaultOther(1, [])).toBe('');
  });

  it('sends the id on edit', () => {
    expect(payload(form(), 12).id).toBe(12);
    expect(payload(form())).not.toHaveProperty('id');
  });
});

describe('tag edit', () => {
  const row = { tag: 'team', group: 'default,vip', models: 'gpt-4o,gpt-4o-mini' };
  const initial = tagFormInitial(row);

  it('says no changes when nothing was changed', () => {
    expect(buildTagEdit('team', initial, initial)).toEqual({ ok: false, error: { key: 'msg.noChanges' } });
    expect(buildTagEdit('team', initial, { ...initial, newTag: ' team ' })).toEqual({
      ok: false,
      error: { key: 'msg.noChanges' },
    });
  });

  it('sends only what changed, lists as comma strings', () => {
    expect(buildTagEdit('team', initial, { ...initial, newTag: 'crew', models: ['gpt-4o'] })).toEqual({
      ok: true,
      payload: { tag: 'team', newTag: 'crew', models: 'gpt-4o' },
    });
    expect(buildTagEdit('team', initial, { ...initial, groups: ['vip'] })).toEqual({
      ok: true,
      payload: { tag: 'team', groups: 'vip' },
    });
  });

  it('checks the model mapping is JSON', () => {
    expect(buildTagEdit('team', initial, { ...initial, model_mapping: 'nope' })).toEqual({
      ok: false,
      error: { key: 'msg.notValidJson' },
    });
    expect(buildTagEdit('team', initial, { ...initial, model_mapping: '{"a":"b"}' })).toEqual({
      ok: true,
      payload: { tag: 'team', model_mapping: '{"a":"b"}' },
    });
  });
});
