// The console's table of what the relay serves (@sluice/shared RELAY_SUPPORT) must say what the
// adapter registry and the task platforms do: a type it calls working must work, and a working type
// must not be marked "not supported yet".
import { describe, expect, it } from 'vitest';
import { RELAY_SUPPORT, TASK_ENDPOINTS, channelTypeLabel, taskEndpointOf } from '@sluice/shared';
import type { RelayEndpoint, TaskEndpoint } from '@sluice/shared';
import type { RelayMode } from '../ir/request.js';
import type { TaskPlatform } from '../tasks/platforms.js';
import { taskPlatformOf } from '../tasks/platforms.js';
import { servedEndpoints } from '../../test-support/relay-coverage.js';
import { servedChannelTypes } from './registry.js';

// The shared endpoint names are the relay's modes and the task platforms, both ways (a compile error otherwise).
const sameModes: [Exclude<RelayMode, RelayEndpoint>, Exclude<RelayEndpoint, RelayMode>] extends [never, never]
  ? true
  : false = true;
const samePlatforms: [Exclude<TaskPlatform, TaskEndpoint>, Exclude<TaskEndpoint, TaskPlatform>] extends [
  never,
  never,
]
  ? true
  : false = true;

describe('the shared relay-support table', () => {
  it('names the relay modes and the task platforms', () => {
    expect(sameModes).toBe(true);
    expect(samePlatforms).toBe(true);
    expect([...TASK_ENDPOINTS].sort()).toEqual(['midjourney', 'suno']);
  });

  it('lists exactly the channel types the relay serves, with the endpoints each serves', () => {
    const shared = new Map([...RELAY_SUPPORT].map(([type, endpoints]) => [type, [...endpoints]]));
    const fix = servedChannelTypes()
      .map((type) => [type, servedEndpoints(type)] as const)
      .filter(([type, endpoints]) => String(shared.get(type)) !== String(endpoints))
      .map(([type, endpoints]) => `[${type}, [${endpoints.map((e) => `'${e}'`).join(', ')}]]`);
    // The message says which lines packages/shared/src/constants/relay-support.ts needs.
    expect(fix, `RELAY_SUPPORT needs: ${fix.join(', ')}`).toEqual([]);
    expect([...shared.keys()].sort((a, b) => a - b)).toEqual(servedChannelTypes());
  });

  it('names the task API of the Midjourney and Suno types, and of no other', () => {
    expect([2, 5, 36].map(taskEndpointOf)).toEqual(['midjourney', 'midjourney', 'suno']);
    for (const type of RELAY_SUPPORT.keys())
      expect(taskEndpointOf(type), `type ${type}`).toBe(taskPlatformOf(type));
  });

  it('only lists types the console knows by name', () => {
    for (const type of RELAY_SUPPORT.keys())
      expect(channelTypeLabel(type), `type ${type}`).not.toBe('unknown type');
  });
});
