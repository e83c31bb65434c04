// Texts of the chat link pages, under `chat`.

type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };

export const chatEn = {
  frameTitle: 'Chat',
  opening: 'Opening the chat…',
  configError: 'chat link configuration error, contact admin',
  notConfigured: 'please contact admin to configure chat links',
  parseFailed: 'chat data parse failed',
  noToken: 'no enabled token available',
  noTokenHint: 'Taking you to the token page to enable or create one…',
  failed: 'Could not load your tokens.',
  retry: 'Retry',
  toTokens: 'Go to tokens',
};

export const chatZhCN: Strings<typeof chatEn> = {
  frameTitle: '聊天',
  opening: '正在打开聊天…',
  configError: '聊天链接配置错误，请联系管理员',
  notConfigured: '请联系管理员配置聊天链接',
  parseFailed: '聊天数据解析失败',
  noToken: '没有可用的已启用令牌',
  noTokenHint: '正在前往令牌页面，请启用或创建一个令牌…',
  failed: '无法加载你的令牌。',
  retry: '重试',
  toTokens: '前往令牌',
};
