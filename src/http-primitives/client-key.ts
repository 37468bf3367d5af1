import { isIPv6 } from 'node:net';

/**
 * What counts as one client, the one rule for it: the IPv4 address, or the /64 network of an IPv6
 * address (one host usually owns a whole /64, so counting single addresses would not limit it).
 * An IPv4-mapped address (`::ffff:a.b.c.d`, however it is spelled: hex groups, no `::`) is its IPv4
 * client; read as a /64 every such client would share `0:0:0:0::/64`, and so one quota.
 * Streams, the rate limits and insight's k threshold all count clients by this key.
 */
export function clientKey(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const words = ipv6Words(ip);
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff)
    return [words[6]! >> 8, words[6]! & 0xff, words[7]! >> 8, words[7]! & 0xff].join('.');
  return `${words
    .slice(0, 4)
    .map((w) => w.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of an address isIPv6 accepted (zone dropped, IPv4 tail as two groups). */
function ipv6Words(ip: string): number[] {
  const address = ip.replace(/%.*$/, '');
  const [head = '', tail = ''] = address.split('::');
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const headWords = parse(head);
  const tailWords = parse(tail);
  const missing = address.includes('::') ? 8 - headWords.length - tailWords.length : 0;
  return [...headWords, ...Array<number>(Math.max(missing, 0)).fill(0), ...tailWords];
}
