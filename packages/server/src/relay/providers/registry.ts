// Channel type number → adapter. Adding a vendor: a folder, one line here, its fixtures in the
// contract suite. A type without an adapter is left out of channel selection.
import type { RelayMode } from '../ir/request.js';
import type { ChatWire } from '../wire/types.js';
import type { ProviderAdapter } from './types.js';
import { openAiCompatible, openaiAdapter } from './openai/index.js';
import { anthropicAdapter } from './anthropic/index.js';
import { geminiAdapter } from './gemini/index.js';
import { vertexAdapter } from './vertex/index.js';
import { azureAdapter } from './azure/index.js';
import { bedrockAdapter } from './bedrock/index.js';
import { isTaskPlatform, taskChannelTypes, taskPlatformOf } from '../tasks/platforms.js';
import type { TaskPlatform } from '../tasks/platforms.js';

const ADAPTERS: ReadonlyMap<number, ProviderAdapter> = new Map([
  [1, openaiAdapter],
  [3, azureAdapter],
  [4, openAiCompatible('ollama', 'http://localhost:11434')],
  [8, openAiCompatible('custom', '')],
  [14, anthropicAdapter],
  [24, geminiAdapter],
  [19, openAiCompatible('360', 'https://ai.360.cn')],
  [25, openAiCompatible('moonshot', 'https://api.moonshot.cn')],
  [31, openAiCompatible('lingyi', 'https://api.lingyiwanwu.com')],
  [33, bedrockAdapter],
  [40, openAiCompatible('siliconcloud', 'https://api.siliconflow.cn')],
  [41, vertexAdapter],
  // Mistral answers 422 to stream_options but puts usage in its last chunk anyway.
  [42, openAiCompatible('mistral', 'https://api.mistral.ai', { askStreamUsage: false })],
]);

export function adapterFor(channelType: number): ProviderAdapter | undefined {
  return ADAPTERS.get(channelType);
}

/** Whether channels of this type can serve calls of this mode (or tasks of this platform). */
export function canServe(channelType: number, mode: RelayMode | TaskPlatform, wire?: ChatWire): boolean {
  if (isTaskPlatform(mode)) return taskPlatformOf(channelType) === mode;
  const adapter = ADAPTERS.get(channelType);
  return (
    adapter !== undefined && adapter.supports(mode) && (wire === undefined || adapter.dialects.includes(wire))
  );
}

/** The channel types the relay serves — an adapter or a task platform — in ascending order (what the README and console list). */
export const servedChannelTypes = (): number[] =>
  [...ADAPTERS.keys(), ...taskChannelTypes()].sort((a, b) => a - b);
