// Default price tables, from the vendors' public list prices (per 1M tokens, text, standard tier).
// Model ratio = USD per 1M prompt tokens ÷ 2 (ratio 1 = $2 per 1M prompt tokens, at 500000 quota per
// dollar). Completion ratio = output price ÷ input price. Operators edit all of these in the console.

export const DEFAULT_MODEL_RATIO: Record<string, number> = {
  // OpenAI
  'gpt-3.5-turbo': 0.25, // $0.50 / $1.50
  'gpt-3.5-turbo-0125': 0.25,
  'gpt-3.5-turbo-0613': 0.75, // $1.50 / $2
  'gpt-3.5-turbo-1106': 0.5, // $1 / $2
  'gpt-3.5-turbo-16k': 1.5, // $3 / $4
  'gpt-3.5-turbo-16k-0613': 1.5,
  'gpt-3.5-turbo-instruct': 0.75, // $1.50 / $2
  'gpt-4': 15, // $30 / $60
  'gpt-4-0613': 15,
  'gpt-4-32k': 30, // $60 / $120
  'gpt-4-32k-0613': 30,
  'gpt-4-turbo': 5, // $10 / $30
  'gpt-4-turbo-2024-04-09': 5,
  'gpt-4-turbo-preview': 5,
  'gpt-4-1106-preview': 5,
  'gpt-4-0125-preview': 5,
  'gpt-4-vision-preview': 5,
  'gpt-4o': 1.25, // $2.50 / $10
  'gpt-4o-2024-05-13': 2.5, // $5 / $15
  'gpt-4o-2024-08-06': 1.25,
  'gpt-4o-2024-11-20': 1.25,
  'chatgpt-4o-latest': 2.5, // $5 / $15
  'gpt-4o-mini': 0.075, // $0.15 / $0.60
  'gpt-4o-mini-2024-07-18': 0.075,
  'gpt-4o-audio-preview': 1.25, // text tokens $2.50 / $10
  'gpt-4o-mini-audio-preview': 0.075, // text tokens $0.15 / $0.60
  'gpt-4o-realtime-preview': 2.5, // text tokens $5 / $20
  'gpt-4o-mini-realtime-preview': 0.3, // text tokens $0.60 / $2.40
  'gpt-4o-search-preview': 1.25, // $2.50 / $10
  'gpt-4o-mini-search-preview': 0.075, // $0.15 / $0.60
  'gpt-4o-transcribe': 1.25, // $2.50 / $10
  'gpt-4o-mini-transcribe': 0.625, // $1.25 / $5
  'gpt-4.1': 1, // $2 / $8
  'gpt-4.1-2025-04-14': 1,
  'gpt-4.1-mini': 0.2, // $0.40 / $1.60
  'gpt-4.1-mini-2025-04-14': 0.2,
  'gpt-4.1-nano': 0.05, // $0.10 / $0.40
  'gpt-4.1-nano-2025-04-14': 0.05,
  'gpt-4.5-preview': 37.5, // $75 / $150
  'gpt-5': 0.625, // $1.25 / $10
  'gpt-5-2025-08-07': 0.625,
  'gpt-5-chat-latest': 0.625,
  'gpt-5-mini': 0.125, // $0.25 / $2
  'gpt-5-mini-2025-08-07': 0.125,
  'gpt-5-nano': 0.025, // $0.05 / $0.40
  'gpt-5-nano-2025-08-07': 0.025,
  o1: 7.5, // $15 / $60
  'o1-2024-12-17': 7.5,
  'o1-preview': 7.5,
  'o1-mini': 0.55, // $1.10 / $4.40
  'o1-mini-2024-09-12': 0.55,
  'o1-pro': 75, // $150 / $600
  o3: 1, // $2 / $8
  'o3-2025-04-16': 1,
  'o3-pro': 10, // $20 / $80
  'o3-mini': 0.55, // $1.10 / $4.40
  'o3-mini-2025-01-31': 0.55,
  'o4-mini': 0.55, // $1.10 / $4.40
  'o4-mini-2025-04-16': 0.55,
  'codex-mini-latest': 0.75, // $1.50 / $6
  'text-embedding-ada-002': 0.05, // $0.10
  'text-embedding-3-small': 0.01, // $0.02
  'text-embedding-3-large': 0.065, // $0.13
  'text-moderation-latest': 0.1,
  'text-moderation-stable': 0.1,
  'omni-moderation-latest': 0.1,
  'davinci-002': 1, // $2
  'babbage-002': 0.2, // $0.40
  'whisper-1': 15, // $0.006 per minute ≈ $0.03 per 1K tokens
  'tts-1': 7.5, // $15 per 1M characters
  'tts-1-1106': 7.5,
  'tts-1-hd': 15, // $30 per 1M characters
  'tts-1-hd-1106': 15,
  // Anthropic
  'claude-instant-1.2': 0.4, // $0.80 / $2.40
  'claude-2.0': 4, // $8 / $24
  'claude-2.1': 4,
  'claude-3-haiku-20240307': 0.125, // $0.25 / $1.25
  'claude-3-5-haiku-20241022': 0.4, // $0.80 / $4
  'claude-3-5-haiku-latest': 0.4,
  'claude-haiku-4-5-20251001': 0.5, // $1 / $5
  'claude-haiku-4-5': 0.5,
  'claude-3-sonnet-20240229': 1.5, // $3 / $15
  'claude-3-5-sonnet-20240620': 1.5,
  'claude-3-5-sonnet-20241022': 1.5,
  'claude-3-5-sonnet-latest': 1.5,
  'claude-3-7-sonnet-20250219': 1.5,
  'claude-3-7-sonnet-latest': 1.5,
  'claude-sonnet-4-20250514': 1.5,
  'claude-sonnet-4-0': 1.5,
  'claude-sonnet-4-5-20250929': 1.5,
  'claude-sonnet-4-5': 1.5,
  'claude-3-opus-20240229': 7.5, // $15 / $75
  'claude-3-opus-latest': 7.5,
  'claude-opus-4-20250514': 7.5,
  'claude-opus-4-0': 7.5,
  'claude-opus-4-1-20250805': 7.5,
  'claude-opus-4-1': 7.5,
  'claude-opus-4-5-20251101': 2.5, // $5 / $25
  'claude-opus-4-5': 2.5,
  // Google
  'gemini-pro': 0.25, // $0.50 / $1.50
  'gemini-pro-vision': 0.25,
  'gemini-1.0-pro': 0.25,
  'gemini-1.5-pro': 0.625, // $1.25 / $5 (prompts up to 128K)
  'gemini-1.5-pro-latest': 0.625,
  'gemini-1.5-flash': 0.0375, // $0.075 / $0.30
  'gemini-1.5-flash-latest': 0.0375,
  'gemini-1.5-flash-8b': 0.01875, // $0.0375 / $0.15
  'gemini-2.0-flash': 0.05, // $0.10 / $0.40
  'gemini-2.0-flash-001': 0.05,
  'gemini-2.0-flash-lite': 0.0375, // $0.075 / $0.30
  'gemini-2.5-pro': 0.625, // $1.25 / $10 (prompts up to 200K)
  'gemini-2.5-flash': 0.15, // $0.30 / $2.50
  'gemini-2.5-flash-lite': 0.05, // $0.10 / $0.40
  'text-embedding-004': 0.001,
  'gemini-embedding-001': 0.075, // $0.15
  // DeepSeek (V3.2 prices, cache miss)
  'deepseek-chat': 0.14, // $0.28 / $0.42
  'deepseek-reasoner': 0.14, // $0.28 / $0.42
  'deepseek-coder': 0.14,
  // Others commonly relayed
  'mistral-large-latest': 1, // $2 / $6
  'mistral-small-latest': 0.1, // $0.20 / $0.60
  'open-mistral-7b': 0.125,
  'command-r': 0.075, // $0.15 / $0.60
  'command-r-plus': 1.25, // $2.50 / $10
  'moonshot-v1-8k': 0.5,
  'moonshot-v1-32k': 1,
  'moonshot-v1-128k': 2.5,
  'glm-4': 7.143,
  'glm-4v': 7.143,
  'glm-3-turbo': 0.3572,
  'qwen-turbo': 0.0857,
  'qwen-plus': 0.5714,
  'qwen-max': 1.4286,
  'llama-3.1-8b-instruct': 0.1,
  'llama-3.1-70b-instruct': 0.4,
};

/** Output tokens cost this many times the prompt tokens. Models not listed default to 1. */
export const DEFAULT_COMPLETION_RATIO: Record<string, number> = {
  'gpt-3.5-turbo': 3,
  'gpt-3.5-turbo-0125': 3,
  'gpt-3.5-turbo-0613': 4 / 3,
  'gpt-3.5-turbo-1106': 2,
  'gpt-3.5-turbo-16k': 4 / 3,
  'gpt-3.5-turbo-16k-0613': 4 / 3,
  'gpt-3.5-turbo-instruct': 4 / 3,
  'gpt-4': 2,
  'gpt-4-0613': 2,
  'gpt-4-32k': 2,
  'gpt-4-32k-0613': 2,
  'gpt-4-turbo': 3,
  'gpt-4-turbo-2024-04-09': 3,
  'gpt-4-turbo-preview': 3,
  'gpt-4-1106-preview': 3,
  'gpt-4-0125-preview': 3,
  'gpt-4-vision-preview': 3,
  'gpt-4o': 4,
  'gpt-4o-2024-05-13': 3,
  'gpt-4o-2024-08-06': 4,
  'gpt-4o-2024-11-20': 4,
  'chatgpt-4o-latest': 3,
  'gpt-4o-mini': 4,
  'gpt-4o-mini-2024-07-18': 4,
  'gpt-4o-audio-preview': 4,
  'gpt-4o-mini-audio-preview': 4,
  'gpt-4o-realtime-preview': 4,
  'gpt-4o-mini-realtime-preview': 4,
  'gpt-4o-search-preview': 4,
  'gpt-4o-mini-search-preview': 4,
  'gpt-4o-transcribe': 4,
  'gpt-4o-mini-transcribe': 4,
  'gpt-4.1': 4,
  'gpt-4.1-2025-04-14': 4,
  'gpt-4.1-mini': 4,
  'gpt-4.1-mini-2025-04-14': 4,
  'gpt-4.1-nano': 4,
  'gpt-4.1-nano-2025-04-14': 4,
  'gpt-4.5-preview': 2,
  'gpt-5': 8,
  'gpt-5-2025-08-07': 8,
  'gpt-5-chat-latest': 8,
  'gpt-5-mini': 8,
  'gpt-5-mini-2025-08-07': 8,
  'gpt-5-nano': 8,
  'gpt-5-nano-2025-08-07': 8,
  o1: 4,
  'o1-2024-12-17': 4,
  'o1-preview': 4,
  'o1-mini': 4,
  'o1-mini-2024-09-12': 4,
  'o1-pro': 4,
  o3: 4,
  'o3-2025-04-16': 4,
  'o3-pro': 4,
  'o3-mini': 4,
  'o3-mini-2025-01-31': 4,
  'o4-mini': 4,
  'o4-mini-2025-04-16': 4,
  'codex-mini-latest': 4,
  'davinci-002': 1,
  'babbage-002': 1,
  'claude-instant-1.2': 3,
  'claude-2.0': 3,
  'claude-2.1': 3,
  'claude-3-haiku-20240307': 5,
  'claude-3-5-haiku-20241022': 5,
  'claude-3-5-haiku-latest': 5,
  'claude-haiku-4-5-20251001': 5,
  'claude-haiku-4-5': 5,
  'claude-3-sonnet-20240229': 5,
  'claude-3-5-sonnet-20240620': 5,
  'claude-3-5-sonnet-20241022': 5,
  'claude-3-5-sonnet-latest': 5,
  'claude-3-7-sonnet-20250219': 5,
  'claude-3-7-sonnet-latest': 5,
  'claude-sonnet-4-20250514': 5,
  'claude-sonnet-4-0': 5,
  'claude-sonnet-4-5-20250929': 5,
  'claude-sonnet-4-5': 5,
  'claude-3-opus-20240229': 5,
  'claude-3-opus-latest': 5,
  'claude-opus-4-20250514': 5,
  'claude-opus-4-0': 5,
  'claude-opus-4-1-20250805': 5,
  'claude-opus-4-1': 5,
  'claude-opus-4-5-20251101': 5,
  'claude-opus-4-5': 5,
  'gemini-pro': 3,
  'gemini-pro-vision': 3,
  'gemini-1.0-pro': 3,
  'gemini-1.5-pro': 4,
  'gemini-1.5-pro-latest': 4,
  'gemini-1.5-flash': 4,
  'gemini-1.5-flash-latest': 4,
  'gemini-1.5-flash-8b': 4,
  'gemini-2.0-flash': 4,
  'gemini-2.0-flash-001': 4,
  'gemini-2.0-flash-lite': 4,
  'gemini-2.5-pro': 8,
  'gemini-2.5-flash': 25 / 3,
  'gemini-2.5-flash-lite': 4,
  'deepseek-chat': 1.5,
  'deepseek-reasoner': 1.5,
  'deepseek-coder': 1.5,
  'mistral-large-latest': 3,
  'mistral-small-latest': 3,
  'command-r': 4,
  'command-r-plus': 4,
};

/** Per-call prices in US dollars (billing type 1). */
export const DEFAULT_MODEL_PRICE: Record<string, number> = {
  'dall-e-2': 0.02,
  'dall-e-3': 0.04,
  'gpt-image-1': 0.04,
  mj_imagine: 0.1,
  mj_variation: 0.1,
  mj_reroll: 0.1,
  mj_blend: 0.1,
  mj_modal: 0.1,
  mj_zoom: 0.1,
  mj_shorten: 0.1,
  mj_high_variation: 0.1,
  mj_low_variation: 0.1,
  mj_pan: 0.1,
  mj_inpaint: 0,
  mj_custom_zoom: 0,
  mj_describe: 0.05,
  mj_upscale: 0.05,
  swap_face: 0.05,
  mj_uploads: 0.05,
  suno_music: 0.1,
  suno_lyrics: 0.01,
};

export const DEFAULT_GROUP_RATIO: Record<string, number> = { default: 1, vip: 1, svip: 1 };

export const DEFAULT_USER_USABLE_GROUPS: Record<string, string> = {
  default: 'Default group',
  vip: 'VIP group',
};

export const DEFAULT_CHATS: Array<Record<string, string>> = [
  { ChatGPT_Next_Web: 'https://app.nextchat.dev/#/?settings={"key":"{key}","url":"{address}"}' },
  {
    'Lobe Chat':
      'https://chat-preview.lobehub.com/?settings={"keyVaults":{"openai":{"apiKey":"{key}","baseURL":"{address}/v1"}}}',
  },
];
