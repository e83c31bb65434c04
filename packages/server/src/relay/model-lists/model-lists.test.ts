// Each vendor's model list as pure functions, on answers written from the vendors' documented
// examples: where the call goes (a channel's base URL replaces only the origin), the page cursor, and
// which listed models a channel can serve.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChannelTarget } from '../providers/types.js';
import { anthropicModelListing } from './anthropic.js';
import { bedrockModelListing } from './bedrock.js';
import { geminiModelListing } from './gemini.js';
import { azureModelListing } from './openai.js';
import type { ModelListing } from './types.js';
import { vertexModelListing } from './vertex.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

const channel = (over: Partial<ChannelTarget>): ChannelTarget => ({
  type: 1,
  key: 'key',
  baseUrl: '',
  organization: '',
  other: '',
  ...over,
});

const source = (listing: ModelListing) => {
  const first = listing.sources[0];
  if (!first) throw new Error('the listing has no source');
  return first;
};

/** 2024-06-01: after curie's inference end date (2024-03-01), before the others'. */
const NOW = 1_717_200_000;

describe('vendor model lists', () => {
  it("Azure: the resource's models that serve calls, asked with a dated version Azure documents", () => {
    const azure = source(azureModelListing);
    expect(azure.parse(fixture('azure-models.json'), NOW).models).toEqual([
      'gpt-4o-2024-08-06',
      'gpt-4o-2024-08-06.ft-0123456789abcdef',
      'text-embedding-3-small',
    ]);
    const request = azure.request(
      channel({ type: 3, baseUrl: 'https://res.openai.azure.com/', key: 'k1' }),
      undefined,
    );
    expect(request).toMatchObject({
      url: 'https://res.openai.azure.com/openai/models?api-version=2024-10-21',
      method: 'GET',
      headers: { 'api-key': 'k1' },
    });
  });

  it('Gemini: generateContent and embedContent models without "models/", and the next page', () => {
    const gemini = source(geminiModelListing);
    expect(gemini.parse(fixture('gemini-models.json'), NOW)).toEqual({
      models: ['gemini-2.5-flash', 'gemini-embedding-001'],
      next: 'Chltb2RlbHMvaW1hZ2VuLTQuMC1nZW5lcmF0ZS0wMDE=',
    });
    expect(gemini.request(channel({ type: 24 }), 'tok/en').url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models?pageSize=1000&pageToken=tok%2Fen',
    );
    expect(gemini.parse({}, NOW)).toEqual({ models: [] });
  });

  it("Anthropic: a page's ids, and its last id as the cursor while there is more", () => {
    const anthropic = source(anthropicModelListing);
    expect(anthropic.parse(fixture('anthropic-models.json'), NOW)).toEqual({
      models: ['claude-sonnet-4-5-20250929', 'claude-haiku-4-5-20251001'],
      next: 'claude-haiku-4-5-20251001',
    });
    expect(anthropic.parse({ data: [], has_more: false, first_id: null, last_id: null }, NOW)).toEqual({
      models: [],
    });
    expect(anthropic.request(channel({ type: 14, baseUrl: 'https://proxy.example/' }), 'claude-x').url).toBe(
      'https://proxy.example/v1/models?limit=1000&after_id=claude-x',
    );
  });

  it('Bedrock: callable Anthropic models by Anthropic name, on the region control plane', () => {
    const bedrock = source(bedrockModelListing);
    expect(bedrock.parse(fixture('bedrock-foundation-models.json'), NOW).models).toEqual([
      'claude-3-haiku-20240307',
      'claude-sonnet-4-5-20250929',
      'anthropic.claude-v2:1',
    ]);
    const keys = 'AKIAIOSFODNN7EXAMPLE|wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY|eu-west-3';
    expect(bedrock.request(channel({ type: 33, key: keys }), undefined)).toMatchObject({
      url: 'https://bedrock.eu-west-3.amazonaws.com/foundation-models?byProvider=anthropic',
      headers: { host: 'bedrock.eu-west-3.amazonaws.com' },
    });
    // A base URL replaces the origin only: a proxy in front of the control plane.
    const viaProxy = bedrock.request(
      channel({ type: 33, key: 'ABSK-key|us-east-1', baseUrl: 'http://gw:8080/x' }),
      undefined,
    );
    expect(viaProxy).toMatchObject({
      url: 'http://gw:8080/foundation-models?byProvider=anthropic',
      headers: { authorization: 'Bearer ABSK-key' },
    });
  });

  it("Vertex: Model Garden's Gemini chat models from the region the channel's Gemini calls use", () => {
    const vertex = source(vertexModelListing);
    expect(vertex.parse(fixture('vertex-publisher-models.json'), NOW)).toEqual({
      models: ['gemini-2.5-pro', 'gemini-2.0-flash-lite-001'],
      next: 'CgJwMg',
    });
    const target = channel({ type: 41, other: 'europe-west4', credential: 'ya29.token' });
    expect(vertex.request(target, 'CgJwMg')).toMatchObject({
      url: 'https://europe-west4-aiplatform.googleapis.com/v1beta1/publishers/google/models?pageSize=100&pageToken=CgJwMg',
      headers: { authorization: 'Bearer ya29.token' },
    });
    expect(vertex.request(channel({ type: 41, credential: 't' }), undefined).url).toMatch(
      /^https:\/\/us-central1-aiplatform\.googleapis\.com\//,
    );
  });

  it('refuses an answer that is not the list', () => {
    for (const listing of [anthropicModelListing, azureModelListing, bedrockModelListing]) {
      expect(() => source(listing).parse({ error: 'nope' }, NOW)).toThrow(
        'upstream answered in an unexpected format',
      );
    }
  });
});
