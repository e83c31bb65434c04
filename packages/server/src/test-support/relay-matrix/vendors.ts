// The vendors of the matrix: one channel each on the mock upstream (Vertex twice: a Gemini and a
// Claude model on one channel), the dialects each speaks (a client of one of them is forwarded, any
// other converted into the first), and where the relay's call to it must go.
import type { RecordedRequest } from '@sluice/mock-upstream';
import type { ChatWire } from '../../relay/wire/types.js';
import type { Json } from './scenario.js';

export const VERTEX_PROJECT = 'sluice-test';

export interface Vendor {
  name: string;
  type: number;
  /** A model only this vendor's channel serves. */
  model: string;
  dialects: readonly ChatWire[];
  /** The upstream path (query excluded) of a call in `wire`, JSON or streamed. */
  path(wire: ChatWire, stream: boolean): RegExp;
  /** Whether the recorded call asked the upstream for a stream. */
  streamed(request: RecordedRequest): boolean;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const exactly = (path: string): RegExp => new RegExp(`^${escape(path)}$`);
const bodyStream = (request: RecordedRequest): boolean => (request.body as Json).stream === true;
const geminiStream = (request: RecordedRequest): boolean =>
  request.path.endsWith(':streamGenerateContent') && request.query.alt === 'sse';

export const VENDORS: readonly Vendor[] = [
  {
    name: 'OpenAI',
    type: 1,
    model: 'gpt-matrix',
    dialects: ['openai', 'responses'],
    path: (wire) => exactly(wire === 'responses' ? '/v1/responses' : '/v1/chat/completions'),
    streamed: bodyStream,
  },
  {
    name: 'Azure OpenAI',
    type: 3,
    model: 'gpt-matrix-azure',
    dialects: ['openai', 'responses'],
    path: (wire) =>
      exactly(
        wire === 'responses'
          ? '/openai/v1/responses'
          : '/openai/deployments/gpt-matrix-azure/chat/completions',
      ),
    streamed: bodyStream,
  },
  {
    name: 'Anthropic',
    type: 14,
    model: 'claude-matrix',
    dialects: ['anthropic'],
    path: () => exactly('/v1/messages'),
    streamed: bodyStream,
  },
  {
    name: 'Gemini',
    type: 24,
    model: 'gemini-matrix',
    dialects: ['gemini'],
    path: (_wire, stream) =>
      exactly(`/v1beta/models/gemini-matrix:${stream ? 'streamGenerateContent' : 'generateContent'}`),
    streamed: geminiStream,
  },
  {
    name: 'AWS Bedrock (Claude)',
    type: 33,
    model: 'claude-3-5-haiku-20241022',
    dialects: ['anthropic'],
    path: (_wire, stream) =>
      exactly(
        `/model/${encodeURIComponent('anthropic.claude-3-5-haiku-20241022-v1:0')}/${stream ? 'invoke-with-response-stream' : 'invoke'}`,
      ),
    streamed: (request) => request.path.endsWith('/invoke-with-response-stream'),
  },
  {
    name: 'Vertex AI (Gemini)',
    type: 41,
    model: 'gemini-2.5-flash',
    dialects: ['gemini'],
    path: (_wire, stream) =>
      exactly(
        `/v1/projects/${VERTEX_PROJECT}/locations/us-central1/publishers/google/models/gemini-2.5-flash:${stream ? 'streamGenerateContent' : 'generateContent'}`,
      ),
    streamed: geminiStream,
  },
  {
    name: 'Vertex AI (Claude)',
    type: 41,
    model: 'claude-sonnet-4',
    dialects: ['anthropic'],
    // The spec's default region for Claude-family models.
    path: (_wire, stream) =>
      exactly(
        `/v1/projects/${VERTEX_PROJECT}/locations/europe-west1/publishers/anthropic/models/claude-sonnet-4:${stream ? 'streamRawPredict' : 'rawPredict'}`,
      ),
    streamed: (request) => request.path.endsWith(':streamRawPredict'),
  },
];

/** The wire a client of `client` reaches `vendor` in: its own when the vendor speaks it. */
export const upstreamWireOf = (vendor: Vendor, client: ChatWire): ChatWire =>
  vendor.dialects.includes(client) ? client : (vendor.dialects[0] as ChatWire);
