// Channel type number → adapter. Adding a vendor: a folder, one line here, its fixtures in the
// contract suite. A type without an adapter is left out of channel selection.
import type { RelayMode } from '../ir/request.js';
import type { ProviderAdapter } from './types.js';
import { openAiCompatible, openaiAdapter } from './openai/index.js';

const ADAPTERS: ReadonlyMap<number, ProviderAdapter> = new Map([
  [1, openaiAdapter],
  [4, openAiCompatible('ollama', 'http://localhost:11434')],
  [8, openAiCompatible('custom', '')],
  [19, openAiCompatible('360', 'https://ai.360.cn')],
  [25, openAiCompatible('moonshot', 'https://api.moonshot.cn')],
  [31, openAiCompatible('lingyi', 'https://api.lingyiwanwu.com')],
  [40, openAiCompatible('siliconcloud', 'https://api.siliconflow.cn')],
  // Mistral answers 422 to stream_options but puts usage in its last chunk anyway.
  [42, openAiCompatible('mistral', 'https://api.mistral.ai', { askStreamUsage: false })],
]);

export function adapterFor(channelType: number): ProviderAdapter | undefined {
  return ADAPTERS.get(channelType);
}

/** Whether channels of this type can serve calls of this mode. */
export const canServe = (channelType: number, mode: RelayMode): boolean =>
  ADAPTERS.get(channelType)?.supports(mode) ?? false;
