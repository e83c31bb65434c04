// Channel type numbers (spec part 1 §3). The console and the relay both key off this table.
export interface ChannelTypeInfo {
  value: number;
  label: string;
  /** Hint shown beside the key field; how the key is split for this vendor. */
  keyFormat?: string;
  /** Stored in `other` when a new channel leaves it empty (API version, Spark version, Vertex region). */
  defaultOther?: string;
  /** The vendor's public API address, used when the channel's base_url is empty. */
  baseUrl?: string;
}

export const CHANNEL_TYPES: readonly ChannelTypeInfo[] = [
  { value: 1, label: 'OpenAI', baseUrl: 'https://api.openai.com' },
  { value: 2, label: 'Midjourney Proxy' },
  { value: 5, label: 'Midjourney Proxy Plus' },
  { value: 36, label: 'Suno API' },
  { value: 4, label: 'Ollama', baseUrl: 'http://localhost:11434' },
  { value: 14, label: 'Anthropic Claude', baseUrl: 'https://api.anthropic.com' },
  { value: 33, label: 'AWS Claude', keyFormat: 'AccessKeyId|SecretAccessKey|Region or APIKey|Region' },
  // No stored default region: with `other` empty the relay picks per model (us-central1, or
  // europe-west1 for Claude models), which one stored region could not do for a mixed channel.
  { value: 41, label: 'Vertex AI', keyFormat: 'service-account JSON' },
  { value: 3, label: 'Azure OpenAI', defaultOther: '2023-06-01-preview' },
  { value: 24, label: 'Google Gemini', baseUrl: 'https://generativelanguage.googleapis.com' },
  { value: 34, label: 'Cohere', baseUrl: 'https://api.cohere.ai' },
  { value: 15, label: 'Baidu Wenxin', keyFormat: 'APIKey|SecretKey', baseUrl: 'https://aip.baidubce.com' },
  { value: 17, label: 'Alibaba Qwen', baseUrl: 'https://dashscope.aliyuncs.com' },
  { value: 18, label: 'iFlytek Spark', keyFormat: 'APPID|APISecret|APIKey', defaultOther: 'v2.1' },
  { value: 16, label: 'Zhipu ChatGLM', baseUrl: 'https://open.bigmodel.cn' },
  { value: 26, label: 'Zhipu GLM-4V', baseUrl: 'https://open.bigmodel.cn' },
  { value: 11, label: 'Google PaLM2', baseUrl: 'https://generativelanguage.googleapis.com' },
  { value: 39, label: 'Cloudflare', baseUrl: 'https://api.cloudflare.com' },
  { value: 25, label: 'Moonshot', baseUrl: 'https://api.moonshot.cn' },
  { value: 19, label: '360 Brain', baseUrl: 'https://ai.360.cn' },
  {
    value: 23,
    label: 'Tencent Hunyuan',
    keyFormat: 'AppId|SecretId|SecretKey',
    baseUrl: 'https://hunyuan.tencentcloudapi.com',
  },
  { value: 31, label: 'Lingyi Wanwu', baseUrl: 'https://api.lingyiwanwu.com' },
  { value: 35, label: 'MiniMax', baseUrl: 'https://api.minimax.chat' },
  { value: 37, label: 'Dify', baseUrl: 'https://api.dify.ai' },
  { value: 38, label: 'Jina', baseUrl: 'https://api.jina.ai' },
  { value: 40, label: 'SiliconCloud', baseUrl: 'https://api.siliconflow.cn' },
  { value: 42, label: 'Mistral AI', baseUrl: 'https://api.mistral.ai' },
  { value: 8, label: 'Custom channel' },
  {
    value: 22,
    label: 'FastGPT knowledge base',
    keyFormat: 'APIKey-AppId',
    baseUrl: 'https://fastgpt.run/api/openapi',
  },
  { value: 21, label: 'AI Proxy knowledge base', baseUrl: 'https://api.aiproxy.io' },
];

export const CHANNEL_TYPE_BY_VALUE: ReadonlyMap<number, ChannelTypeInfo> = new Map(
  CHANNEL_TYPES.map((t) => [t.value, t]),
);

export const channelTypeLabel = (type: number): string =>
  CHANNEL_TYPE_BY_VALUE.get(type)?.label ?? 'unknown type';

/** The address a channel talks to: its own base_url, else its vendor's public one ('' when neither). */
export const channelBaseUrl = (type: number, baseUrl: string): string =>
  (baseUrl.trim() || CHANNEL_TYPE_BY_VALUE.get(type)?.baseUrl || '').replace(/\/+$/, '');
