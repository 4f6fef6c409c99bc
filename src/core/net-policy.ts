// Which addresses the server's own outgoing connections (checks, webhooks) may reach. Anyone
// who may define a check or a webhook chooses its target; without a policy they could make
// the server read cloud metadata (169.254.169.254, fd00:ec2::254) or other internal services
// (server-side request forgery). The policy is enforced at connect time, after name
// resolution: a name that resolves to a refused address is refused, as is a redirect to one,
// and the address checked is the one connected to (no second lookup to rebind).
// An address is refused when it lies in a `denyNetworks` entry and in no `allowNetworks`
// entry: the allow list carves exceptions out of the deny list.
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export interface NetPolicySettings {
  denyNetworks: readonly string[];
  allowNetworks: readonly string[];
}

/** The cloud metadata ranges: link-local IPv4 and IPv6, and AWS's IPv6 metadata address. */
export const DEFAULT_DENY_NETWORKS = ['169.254.0.0/16', 'fe80::/10', 'fd00:ec2::254/128'];

/** A connection the policy refused; `code` lets callers tell it from network errors. */
export class NetPolicyError extends Error {
  override name = 'NetPolicyError';
  readonly code = 'EVIGILDENIED';
}

interface Network {
  text: string;
  list: BlockList;
}

function parseNetwork(text: string, setting: string): Network {
  const [address, bits, extra] = text.trim().split('/');
  const family = address ? isIP(address) : 0;
  const max = family === 6 ? 128 : 32;
  const prefix = bits === undefined ? max : Number(bits);
  if (!family || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > max || (bits !== undefined && !/^\d+$/.test(bits))) {
    throw new Error(`${setting}: "${text}" is not an address or CIDR network (like 10.0.0.0/8 or fd00::/8)`);
  }
  const list = new BlockList();
  list.addSubnet(address!, prefix, family === 6 ? 'ipv6' : 'ipv4');
  return { text: text.trim(), list };
}

/** The IPv4 address inside an IPv4-mapped IPv6 one (::ffff:a.b.c.d or ::ffff:xxxx:yyyy). */
function mappedV4(address: string): string | undefined {
  const m = /^(?:0{0,4}:){0,5}:?ffff:(.+)$/i.exec(address.startsWith('::') ? address : '');
  if (!m) return undefined;
  const rest = m[1]!;
  if (isIP(rest) === 4) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(rest);
  if (!hex) return undefined;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

// Connecting to an unspecified address reaches this host (Linux: 0.0.0.0 is 127.0.0.1, :: is
// ::1), so it is also checked as loopback: a deny of 127.0.0.0/8 must hold for
// http://0.0.0.0:8080/ (or http://0:8080/) too.
const UNSPECIFIED_V4 = new BlockList();
UNSPECIFIED_V4.addSubnet('0.0.0.0', 8, 'ipv4');
const UNSPECIFIED_V6 = new BlockList();
UNSPECIFIED_V6.addAddress('::', 'ipv6');

type Family = 'ipv4' | 'ipv6';

/** The forms an address is checked in: itself, the IPv4 inside a mapped one, loopback for an unspecified one. */
function formsOf(address: string): Array<[string, Family]> {
  const family: Family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  const forms: Array<[string, Family]> = [[address, family]];
  const v4 = family === 'ipv6' ? mappedV4(address) : undefined;
  if (v4 !== undefined) forms.push([v4, 'ipv4']);
  if (forms.some(([a, f]) => f === 'ipv4' && UNSPECIFIED_V4.check(a, 'ipv4'))) forms.push(['127.0.0.1', 'ipv4']);
  if (family === 'ipv6' && UNSPECIFIED_V6.check(address, 'ipv6')) forms.push(['::1', 'ipv6'], ['127.0.0.1', 'ipv4']);
  return forms;
}

/** Host as written in a URL ("[::1]") or a setting: without brackets and zone. */
const bare = (host: string) => host.replace(/^\[|\]$/g, '').replace(/%.*$/, '');

export interface NetPolicy {
  /** Why a connection to this IP address is refused (naming the setting), or undefined. */
  refusal(address: string): string | undefined;
  /** For a literal IP host: why it is refused. Names are checked when resolved (`lookup`). */
  refusalForHost(host: string): string | undefined;
  /** A dns.lookup for net, http and undici: refused addresses are left out, none left is an error. */
  lookup: LookupFunction;
  /** Resolves a host (name or literal) to the address to use, refused ones left out; throws NetPolicyError. */
  resolve(host: string): Promise<LookupAddress>;
}

/** `setting` names the configuration key prefix in messages, e.g. "probes" → probes.denyNetworks. */
export function createNetPolicy(settings: NetPolicySettings, setting: string): NetPolicy {
  const deny = settings.denyNetworks.map((n) => parseNetwork(n, `${setting}.denyNetworks`));
  const allow = settings.allowNetworks.map((n) => parseNetwork(n, `${setting}.allowNetworks`));

  const inside = (networks: Network[], address: string): Network | undefined => {
    const forms = formsOf(address);
    return networks.find((n) => forms.some(([a, family]) => n.list.check(a, family)));
  };

  function refusal(address: string): string | undefined {
    const ip = bare(address);
    if (!isIP(ip)) return undefined;
    const denied = inside(deny, ip);
    if (!denied || inside(allow, ip)) return undefined;
    return `address ${ip} is in ${denied.text}, refused by setting ${setting}.denyNetworks`;
  }

  const refused = (host: string, why: string) => new NetPolicyError(`${host} resolves to ${why}`);

  function lookupAll(host: string, family: number | undefined, hints: number | undefined, done: (err: Error | null, addresses: LookupAddress[]) => void): void {
    const options: LookupAllOptions = { all: true, ...(family ? { family } : {}), ...(hints !== undefined ? { hints } : {}) };
    dnsLookup(host, options, (err, addresses) => {
      if (err) return done(err, []);
      const usable = addresses.filter((a) => !refusal(a.address));
      if (usable.length === 0 && addresses.length > 0) return done(refused(host, refusal(addresses[0]!.address)!), []);
      done(null, usable);
    });
  }

  const lookup = ((hostname: string, options: number | LookupOneOptions | LookupAllOptions, callback: (...args: unknown[]) => void) => {
    const opts = typeof options === 'number' ? { family: options } : (options ?? {});
    const family = typeof opts.family === 'number' ? opts.family : opts.family === 'IPv6' ? 6 : opts.family === 'IPv4' ? 4 : undefined;
    lookupAll(hostname, family, opts.hints, (err, addresses) => {
      if (err) return callback(err, opts.all ? [] : undefined, undefined);
      if (opts.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  }) as unknown as LookupFunction;

  return {
    refusal,
    refusalForHost(host: string): string | undefined {
      return refusal(bare(host));
    },
    lookup,
    resolve(host: string): Promise<LookupAddress> {
      const ip = bare(host);
      const family = isIP(ip);
      if (family) {
        const why = refusal(ip);
        return why ? Promise.reject(new NetPolicyError(why)) : Promise.resolve({ address: ip, family });
      }
      return new Promise((resolve, reject) => lookupAll(host, undefined, undefined, (err, addresses) => (err ? reject(err) : resolve(addresses[0]!))));
    },
  };
}

/** No policy (the remote agent's probes, tests of single probes): everything is allowed. */
export const OPEN_NET_POLICY: NetPolicy = createNetPolicy({ denyNetworks: [], allowNetworks: [] }, 'none');
