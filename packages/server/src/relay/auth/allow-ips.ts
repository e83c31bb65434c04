// A token's allow_ips: addresses and CIDR ranges, one per line (commas accepted), IPv4 and IPv6.
import { BlockList, isIP } from 'node:net';

export interface IpAllowList {
  allows(ip: string): boolean;
}

/** Undefined when the list is empty (any address allowed). Entries that do not parse are ignored. */
export function parseAllowIps(text: string): IpAllowList | undefined {
  const list = new BlockList();
  let entries = 0;
  for (const entry of text.split(/[\n,]/)) {
    const value = entry.trim();
    if (value === '') continue;
    const [address = '', prefix] = value.split('/');
    const family = isIP(address);
    if (family === 0) continue;
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) {
      list.addAddress(address, type);
    } else {
      const bits = Number(prefix);
      if (!Number.isInteger(bits) || bits < 0 || bits > (family === 6 ? 128 : 32)) continue;
      list.addSubnet(address, bits, type);
    }
    entries++;
  }
  if (entries === 0) return undefined;
  return {
    allows(ip) {
      const v4 = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
      const family = isIP(v4);
      if (family === 0) return false;
      return list.check(v4, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}
