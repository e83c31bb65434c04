// Channel type numbers (spec part 1 §3). The console and the relay both key off this table.
export interface ChannelTypeInfo {
  value: number;
  label: string;
  /** Hint shown beside the key field; how the key is split for this vendor. */
  keyFormat?: string;
}

export const CHANNEL_TYPES: readonly ChannelTypeInfo[] = [
  { value: 1, label: 'OpenAI' },
  { value: 2, label: 'Midjourney Proxy' },
  { value: 5, label: 'Midjourney Proxy Plus' },
  { value: 36, label: 'Suno API' },
  { value: 4, label: 'Ollama' },
  { value: 14, label: 'Anthropic Claude' },
  { value: 33, label: 'AWS Claude', keyFormat: 'Ak|Sk|Region' },
  { value: 41, label: 'Vertex AI', keyFormat: 'service-account JSON' },
  { value: 3, label: 'Azure OpenAI' },
  { value: 24, label: 'Google Gemini' },
  { value: 34, label: 'Cohere' },
  { value: 15, label: 'Baidu Wenxin', keyFormat: 'APIKey|SecretKey' },
  { value: 17, label: 'Alibaba Qwen' },
  { value: 18, label: 'iFlytek Spark', keyFormat: 'APPID|APISecret|APIKey' },
  { value: 16, label: 'Zhipu ChatGLM' },
  { value: 26, label: 'Zhipu GLM-4V' },
  { value: 11, label: 'Google PaLM2' },
  { value: 39, label: 'Cloudflare' },
  { value: 25, label: 'Moonshot' },
  { value: 19, label: '360 Brain' },
  { value: 23, label: 'Tencent Hunyuan', keyFormat: 'AppId|SecretId|SecretKey' },
  { value: 31, label: 'Lingyi Wanwu' },
  { value: 35, label: 'MiniMax' },
  { value: 37, label: 'Dify' },
  { value: 38, label: 'Jina' },
  { value: 40, label: 'SiliconCloud' },
  { value: 42, label: 'Mistral AI' },
  { value: 8, label: 'Custom channel' },
  { value: 22, label: 'FastGPT knowledge base', keyFormat: 'APIKey-AppId' },
  { value: 21, label: 'AI Proxy knowledge base' },
];

export const CHANNEL_TYPE_BY_VALUE: ReadonlyMap<number, ChannelTypeInfo> = new Map(
  CHANNEL_TYPES.map((t) => [t.value, t]),
);

export const channelTypeLabel = (type: number): string =>
  CHANNEL_TYPE_BY_VALUE.get(type)?.label ?? 'unknown type';
