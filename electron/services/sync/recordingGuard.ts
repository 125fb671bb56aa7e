// Which recording URLs are fetched. The service names them, so a hostile or compromised service (or
// a record altered on the way) could point the app at the operator's own network: a router's admin
// page, a cloud metadata address, a local browser host. A URL is fetched when it is on the
// workspace's own service origin (the built-in Sandbox and the tests serve recordings from
// 127.0.0.1 that way), or when every address its host resolves to is a public one. Each redirect
// hop is checked again by the downloader.
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export type Lookup = (host: string) => Promise<Array<{ address: string; family: number }>>;

export type UrlVerdict =
  | { ok: true; url: URL }
  /** Never to be fetched: the recording is marked failed with this reason. */
  | { ok: false; refused: true; reason: string }
  /** The host could not be resolved now: try again later. */
  | { ok: false; refused: false; reason: string };

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64 (maps onto IPv4, whose checks it would skip)
  ['2002::', 16], // 6to4 (likewise)
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address (v4, v6, or v4 mapped into v6) is one the app may fetch recordings from. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
  if (mapped) return isPublicAddress(mapped);
  const family = isIP(bare);
  if (family === 0) return false;
  if (family === 6 && /^::ffff:/i.test(bare)) return false; // a mapped address in hex form
  return !blocked.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * The verdict on one URL (the first one or a redirect's target). `serviceOrigin` is the workspace's
 * base URL origin: the service itself is trusted wherever it runs.
 */
export async function checkRecordingUrl(
  raw: string,
  serviceOrigin: string | null,
  lookup: Lookup = systemLookup,
): Promise<UrlVerdict> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, refused: true, reason: 'Refused: the recording URL is not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return {
      ok: false,
      refused: true,
      reason: `Refused: recording URLs must be http(s), not ${url.protocol.replace(':', '')}:`,
    };
  if (url.username || url.password)
    return { ok: false, refused: true, reason: 'Refused: the recording URL carries a user name or password' };
  if (serviceOrigin !== null && url.origin === serviceOrigin) return { ok: true, url };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = (await lookup(host)).map((a) => a.address);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'lookup failed';
      return { ok: false, refused: false, reason: `unreachable: ${url.host}: ${code}` };
    }
    if (addresses.length === 0)
      return { ok: false, refused: false, reason: `unreachable: ${url.host}: no address` };
  }
  const inner = addresses.find((a) => !isPublicAddress(a));
  if (inner !== undefined)
    return {
      ok: false,
      refused: true,
      reason: `Refused: the recording URL's host ${url.host} is a local or private address (${inner}), not the service's`,
    };
  return { ok: true, url };
}
