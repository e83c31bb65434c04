// The console's table of what the relay serves (@sluice/shared RELAY_SUPPORT) must say what the
// adapter registry does: a type it calls working must work, and a working type must not be marked
// "not supported yet".
import { describe, expect, it } from 'vitest';
import { RELAY_ENDPOINTS, RELAY_SUPPORT, channelTypeLabel } from '@sluice/shared';
import type { RelayEndpoint } from '@sluice/shared';
import type { RelayMode } from '../ir/request.js';
import { adapterFor, servedChannelTypes } from './registry.js';

// The shared endpoint names are the relay's modes, both ways (a compile error otherwise).
const sameModes: [Exclude<RelayMode, RelayEndpoint>, Exclude<RelayEndpoint, RelayMode>] extends [never, never]
  ? true
  : false = true;

/** Type → the endpoints its adapter serves, as the registry says. */
function registryTable(): Map<number, RelayEndpoint[]> {
  const table = new Map<number, RelayEndpoint[]>();
  for (const type of servedChannelTypes()) {
    const adapter = adapterFor(type);
    table.set(
      type,
      RELAY_ENDPOINTS.filter((mode) => adapter?.supports(mode) === true),
    );
  }
  return table;
}

describe('the shared relay-support table', () => {
  it('names the relay modes', () => {
    expect(sameModes).toBe(true);
  });

  it('lists exactly the channel types the registry has an adapter for, with the endpoints each serves', () => {
    const shared = new Map([...RELAY_SUPPORT].map(([type, endpoints]) => [type, [...endpoints]]));
    const fix = [...registryTable()]
      .filter(([type, endpoints]) => String(shared.get(type)) !== String(endpoints))
      .map(([type, endpoints]) => `[${type}, [${endpoints.map((e) => `'${e}'`).join(', ')}]]`);
    // The message says which lines packages/shared/src/constants/relay-support.ts needs.
    expect(fix, `RELAY_SUPPORT needs: ${fix.join(', ')}`).toEqual([]);
    expect([...shared.keys()].sort((a, b) => a - b)).toEqual(servedChannelTypes());
  });

  it('only lists types the console knows by name', () => {
    for (const type of RELAY_SUPPORT.keys())
      expect(channelTypeLabel(type), `type ${type}`).not.toBe('unknown type');
  });
});
