// one-api numbers its channel types differently from new-api (whose numbers Sluice uses) from type 2
// on, and keeps vendor settings (API version, region, AWS keys, Vertex credentials) in a JSON
// `config` column instead of `other` and the key. This maps a one-api channel to its Sluice form.
import { jsonObjectOf, textOf } from './values.js';
import type { SourceRow } from './values.js';

interface TypeMapping {
  /** one-api's name for the type, for the report. */
  name: string;
  /** The type number in Sluice (new-api's numbering); null when Sluice has no such vendor. */
  type: number | null;
  /**
   * one-api's built-in address for the vendor, written to base_url when the channel left it empty
   * and becomes a plain OpenAI-compatible channel (whose default address is OpenAI's).
   */
  baseUrl?: string;
}

const openAiVia = (name: string, baseUrl: string): TypeMapping => ({ name, type: 1, baseUrl });
const same = (name: string, type: number): TypeMapping => ({ name, type });

/** one-api's type numbers (relay/channeltype) → Sluice's. */
export const ONE_API_TYPES: ReadonlyMap<number, TypeMapping> = new Map([
  [1, same('OpenAI', 1)],
  [2, openAiVia('API2D', 'https://oa.api2d.net')],
  [3, same('Azure', 3)],
  [4, openAiVia('CloseAI', 'https://api.closeai-proxy.xyz')],
  [5, openAiVia('OpenAI-SB', 'https://api.openai-sb.com')],
  [6, same('OpenAIMax', 6)],
  [7, same('OhMyGPT', 7)],
  [8, same('Custom', 8)],
  [9, same('Ails', 9)],
  [10, same('AIProxy', 10)],
  [11, same('PaLM', 11)],
  [12, same('API2GPT', 12)],
  [13, same('AIGC2D', 13)],
  [14, same('Anthropic', 14)],
  [15, same('Baidu', 15)],
  [16, same('Zhipu', 16)],
  [17, same('Ali', 17)],
  [18, same('Xunfei', 18)],
  [19, same('360', 19)],
  [20, same('OpenRouter', 20)],
  [21, same('AIProxyLibrary', 21)],
  [22, same('FastGPT', 22)],
  [23, same('Tencent', 23)],
  [24, same('Gemini', 24)],
  [25, same('Moonshot', 25)],
  [26, openAiVia('Baichuan', 'https://api.baichuan-ai.com')],
  [27, same('Minimax', 35)],
  [28, same('Mistral', 42)],
  [29, openAiVia('Groq', 'https://api.groq.com/openai')],
  [30, same('Ollama', 4)],
  [31, same('LingYiWanWu', 31)],
  [32, openAiVia('StepFun', 'https://api.stepfun.com')],
  [33, same('AwsClaude', 33)],
  [34, same('Coze', 49)],
  [35, same('Cohere', 34)],
  [36, same('DeepSeek', 43)],
  [37, same('Cloudflare', 39)],
  [38, { name: 'DeepL', type: null }],
  [39, openAiVia('TogetherAI', 'https://api.together.xyz')],
  [40, same('Doubao', 45)],
  // Novita's OpenAI-compatible API lives under a path (/v3/openai) that the OpenAI adapter's
  // /v1/... requests cannot reach; one-api's Proxy type has no counterpart.
  [41, { name: 'Novita', type: null }],
  [42, same('VertexAI', 41)],
  [43, { name: 'Proxy', type: null }],
  [44, same('SiliconFlow', 40)],
  [45, same('XAI', 48)],
  [46, same('Replicate', 56)],
  [47, same('BaiduV2', 46)],
  [48, openAiVia('XunfeiV2', 'https://spark-api-open.xf-yun.com')],
  [49, same('AliBailian', 17)],
  [50, same('OpenAICompatible', 1)],
  [51, same('GeminiOpenAICompatible', 24)],
]);

/** one-api's default for type 51, an OpenAI-compatible path the native Gemini adapter must not keep. */
const GEMINI_OPENAI_BASE = /^https:\/\/generativelanguage\.googleapis\.com\/v1beta\/openai\/?$/;

export type OneApiChannel =
  | { ok: true; type: number; baseUrl: string; key: string; other: string; note?: string }
  | { ok: false; reason: string };

/**
 * Sluice's type, base_url, key and `other` for a one-api channel row. `other` takes what new-api keeps
 * there (Azure's and Spark's API version, Vertex's region, Cloudflare's account id, the AI Proxy
 * library id) from one-api's `config`, when `other` itself is empty.
 */
export function mapOneApiChannel(row: SourceRow): OneApiChannel {
  const oldType = Number(row.type ?? 0);
  const mapping = ONE_API_TYPES.get(oldType);
  if (!mapping || mapping.type === null) {
    return {
      ok: false,
      reason: `one-api type ${oldType}${mapping ? ` (${mapping.name})` : ''} has no counterpart in Sluice`,
    };
  }
  const config = jsonObjectOf(row.config);
  const setting = (name: string) => textOf(config[name], '').trim();
  let baseUrl = textOf(row.base_url, '').trim();
  if (baseUrl === '' && mapping.baseUrl) baseUrl = mapping.baseUrl;
  if (oldType === 51 && GEMINI_OPENAI_BASE.test(baseUrl)) baseUrl = '';
  let key = textOf(row.key, '');
  let other = textOf(row.other, '').trim();
  if (other === '') {
    if (oldType === 3 || oldType === 18) other = setting('api_version');
    else if (oldType === 42) other = setting('region');
    else if (oldType === 37) other = setting('user_id');
    else if (oldType === 21) other = setting('library_id');
  }
  // new-api's key forms: AccessKeyId|SecretAccessKey|Region for AWS, the service-account JSON for Vertex.
  if (oldType === 33 && !key.includes('|') && setting('ak') !== '') {
    key = [setting('ak'), setting('sk'), setting('region')].join('|');
  }
  if (oldType === 42 && setting('vertex_ai_adc') !== '' && !key.trim().startsWith('{')) {
    key = setting('vertex_ai_adc');
  }
  const note =
    mapping.type === oldType
      ? undefined
      : `of one-api type ${oldType} (${mapping.name}) made type ${mapping.type}`;
  return { ok: true, type: mapping.type, baseUrl, key, other, ...(note ? { note } : {}) };
}
