import ipaddr from 'ipaddr.js';
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/**
 * The one fetcher for URLs a caller gives (DESIGN.md §9). A URL is refused unless it is http or https and
 * every address its host resolves to is public; the connection goes to exactly the addresses that were
 * checked (the resolver's answer is pinned into the socket's lookup, so a second DNS answer cannot swap in
 * a private address); redirects are followed by hand and each hop is checked again; the body is capped at
 * 25 MB after decompression and the whole fetch at a time limit.
 */

/** The spec's cap on a fetched URL body (Limits: 25 MB, uploads and URL fetches). */
export const MAX_FETCH_BYTES = 25 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_REDIRECTS = 5;
const DEFAULT_USER_AGENT = `TenderIntelBot/0.6 (+${process.env.SVC_CONTACT_URL ?? 'https://github.com/tender-intel/tender-intel#contact'})`;

/**
 * Why a fetch failed, as a route maps it: `refused` (not an http(s) URL, or a host that is not public) is
 * 400; `too_large` (body over the cap) is 413; `unreachable` (no answer, an error status, too many
 * redirects) is 502. The message is a sentence a person can act on.
 */
export type SafeFetchErrorKind = 'refused' | 'too_large' | 'unreachable';

export class SafeFetchError extends Error {
  readonly kind: SafeFetchErrorKind;
  constructor(kind: SafeFetchErrorKind, message: string) {
    super(message);
    this.name = 'SafeFetchError';
    this.kind = kind;
  }
}

export interface ResolvedAddress {
  address: string;
  /** 4 or 6. */
  family: number;
}

/** Resolves a host name to every address it has (the default asks the system resolver). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface SafeFetchOptions {
  /** DNS, injectable so tests can point a name at a loopback server. Default: the system resolver, every address. */
  resolve?: Resolver;
  /**
   * Addresses let through although they are not public. For tests only, which serve pages on 127.0.0.1:
   * production code never sets it, and the guard's own tests run without it.
   */
  testOnlyPermittedAddresses?: readonly string[];
  /** Default 25 MB (the spec's cap). */
  maxBytes?: number;
  /** The whole fetch, redirects included. Default 15 s. */
  timeoutMs?: number;
  /** Default 5. */
  maxRedirects?: number;
  userAgent?: string;
}

export interface SafeResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  /** The media type without parameters, lower case, or null when none was sent. */
  contentType: string | null;
  body: Buffer;
}

export interface SafeFetchInit {
  /** The Accept header. */
  accept?: string;
  /** Default GET. A HEAD answer has an empty body. */
  method?: 'GET' | 'HEAD';
  /**
   * Answer any final status (404, 410, 500 …) with its body instead of rejecting: for callers that judge the
   * status themselves, such as the reference checker telling a dead link from a live one. Redirects are still
   * followed, and refusals, size and time limits still reject.
   */
  anyStatus?: boolean;
}

/** GETs a caller-given URL safely; rejects with a `SafeFetchError` (see `createSafeFetcher`). */
export type SafeFetcher = (url: string, init?: SafeFetchInit) => Promise<SafeResponse>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

// ipaddr.js names every address outside its list of special ranges `unicast`, unallocated IPv6 space too;
// public IPv6 is only ever assigned from 2000::/3 (RFC 4291 global unicast), so nothing outside it is let through.
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Why an IP address is not a public internet address (a sentence fragment such as "a loopback address"),
 * or null when it is public. IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
 * Ranges come from ipaddr.js: private, loopback, link-local, multicast, broadcast, reserved, carrier-grade
 * NAT, unspecified, unique-local, and the IPv6 transition ranges (NAT64, 6to4, Teredo), which can lead
 * back to an internal IPv4 address.
 */
export function addressRefusal(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'not an IP address';
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return addressRefusal(v6.toIPv4Address().toString());
    const range = v6.range();
    if (range !== 'unicast') return `${RANGE_NAMES[range] ?? `a reserved address (${range})`}`;
    if (!v6.match(IPV6_GLOBAL_UNICAST)) return 'an address outside the public IPv6 range';
    return null;
  }
  const range = (parsed as ipaddr.IPv4).range();
  return range === 'unicast' ? null : (RANGE_NAMES[range] ?? `a reserved address (${range})`);
}

const RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private network address',
  reserved: 'a reserved address',
  uniqueLocal: 'a private network address (unique local)',
  rfc6145: 'an IPv4-translated address',
  rfc6052: 'a NAT64 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
  benchmarking: 'a benchmarking address',
};

/**
 * Checks a caller's URL before anything is fetched: http or https, no embedded credentials, a host.
 * The WHATWG URL parser already rewrites odd IPv4 spellings (`0x7f.1`, `2130706433`, `0177.0.0.1`, `0`,
 * a trailing dot) to the dotted address they mean, so the address check sees what a socket would.
 */
export function checkedUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new SafeFetchError('refused', `${truncate(String(input))} is not a URL; give an http or https address such as https://example.com.au/.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SafeFetchError('refused', `Only http and https addresses can be read; ${url.protocol.slice(0, -1)} is not allowed.`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new SafeFetchError('refused', 'Addresses with a user name or password in them are not read; give the public address of the page.');
  }
  if (url.hostname === '') throw new SafeFetchError('refused', `${truncate(url.href)} names no host.`);
  return url;
}

/** The host as a socket takes it: IPv6 literals without brackets, one trailing dot of a name removed. */
function socketHost(url: URL): string {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/**
 * A fetcher that refuses non-public destinations (see the module comment).
 *
 * @example
 * const fetchSite = createSafeFetcher();
 * try {
 *   const page = await fetchSite('https://example.com.au/');
 *   console.log(page.status, page.contentType, page.body.length);
 * } catch (error) {
 *   if (error instanceof SafeFetchError) console.log(error.kind, error.message); // refused → 400, too_large → 413, unreachable → 502
 * }
 */
export function createSafeFetcher(options: SafeFetchOptions = {}): SafeFetcher {
  const resolve = options.resolve ?? systemResolver;
  const permitted = new Set((options.testOnlyPermittedAddresses ?? []).map((address) => ipaddr.parse(address).toNormalizedString()));
  const maxBytes = options.maxBytes ?? MAX_FETCH_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;

  const refusal = (address: string) => (permitted.has(ipaddr.parse(address).toNormalizedString()) ? null : addressRefusal(address));

  /** Every address the host has, each checked; a host with any non-public address is refused outright. */
  async function publicAddresses(url: URL): Promise<ResolvedAddress[]> {
    const host = socketHost(url);
    const literalFamily = isIP(host);
    const addresses = literalFamily !== 0 ? [{ address: host, family: literalFamily }] : await resolveHost(host);
    for (const { address } of addresses) {
      const why = refusal(address);
      if (why !== null) {
        const shown = literalFamily !== 0 ? address : `${host} (${address})`;
        throw new SafeFetchError('refused', `${shown} is ${why}, not a public internet host; only public websites can be read.`);
      }
    }
    return addresses;
  }

  async function resolveHost(host: string): Promise<ResolvedAddress[]> {
    let addresses: ResolvedAddress[];
    try {
      addresses = await resolve(host);
    } catch {
      throw new SafeFetchError('unreachable', `The host ${truncate(host)} could not be found; check the address.`);
    }
    if (addresses.length === 0) throw new SafeFetchError('unreachable', `The host ${truncate(host)} has no address; check the address.`);
    return addresses;
  }

  return async function safeFetch(input, init = {}) {
    const signal = AbortSignal.timeout(timeoutMs);
    let url = checkedUrl(input);
    for (let hop = 0; ; hop++) {
      const addresses = await publicAddresses(url);
      const method = init.method ?? 'GET';
      const response = await get(url, addresses, { method, accept: init.accept ?? '*/*', userAgent, signal, timeoutMs });
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location !== undefined) {
        response.destroy();
        if (hop >= maxRedirects) throw new SafeFetchError('unreachable', `${truncate(url.href)} redirected more than ${maxRedirects} times; give the final address.`);
        // Each hop is a new caller-given URL as far as the guard is concerned: scheme and every address checked again.
        url = checkedUrl(new URL(location, url));
        continue;
      }
      if ((status < 200 || status >= 300) && init.anyStatus !== true) {
        response.destroy();
        throw new SafeFetchError('unreachable', `${truncate(url.href)} answered HTTP ${status}; it could not be read.`);
      }
      // A HEAD answer declares the GET body's length but carries none: nothing to read or cap.
      const body = method === 'HEAD' ? (response.destroy(), Buffer.alloc(0)) : await readCapped(response, url, maxBytes, signal);
      const contentType = response.headers['content-type']?.split(';')[0]?.trim().toLowerCase() || null;
      return { url: url.href, status, contentType, body };
    }
  };
}

interface GetOptions {
  method: 'GET' | 'HEAD';
  accept: string;
  userAgent: string;
  signal: AbortSignal;
  timeoutMs: number;
}

/** One GET (or HEAD) to `url`, connecting only to `addresses` (already checked) with the Host header and TLS name of the URL. */
function get(url: URL, addresses: ResolvedAddress[], options: GetOptions): Promise<IncomingMessage> {
  const host = socketHost(url);
  // net.connect asks this for the host's address (all of them when it races IPv4 and IPv6): it only ever
  // answers with the addresses that were checked, so no second DNS answer reaches the socket.
  const pinnedLookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    const wanted = lookupOptions.family === 4 || lookupOptions.family === 6 ? addresses.filter((entry) => entry.family === lookupOptions.family) : addresses;
    if (lookupOptions.all) (callback as unknown as (error: null, all: ResolvedAddress[]) => void)(null, wanted);
    else if (wanted[0]) callback(null, wanted[0].address, wanted[0].family);
    else callback(Object.assign(new Error(`no address of family ${String(lookupOptions.family)}`), { code: 'ENOTFOUND' }), '', 0);
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolvePromise, reject) => {
    const outgoing = request(
      {
        host,
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: options.method,
        headers: { host: url.host, accept: options.accept, 'accept-encoding': 'gzip, deflate, br', 'user-agent': options.userAgent },
        lookup: pinnedLookup,
        ...(isIP(host) === 0 && url.protocol === 'https:' ? { servername: host } : {}),
        agent: false,
        signal: options.signal,
        timeout: options.timeoutMs,
      },
      resolvePromise,
    );
    outgoing.on('timeout', () => outgoing.destroy(new SafeFetchError('unreachable', `${truncate(url.href)} did not answer in time.`)));
    outgoing.on('error', (error) => reject(unreachable(url, error, options.signal)));
    outgoing.end();
  });
}

/** The body, decompressed, refused as soon as it passes `maxBytes` (a declared length over the cap is refused before reading). */
async function readCapped(response: IncomingMessage, url: URL, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const tooLarge = () => new SafeFetchError('too_large', `${truncate(url.href)} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB; only pages up to that size are read.`);
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const decoded = decoder(response, url);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of decoded as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof SafeFetchError) throw error;
    throw unreachable(url, error, signal);
  } finally {
    response.destroy();
    if (decoded !== response) decoded.destroy();
  }
  return Buffer.concat(chunks, size);
}

/** The response body as plain bytes: compressed bodies are inflated so the cap applies to what is held in memory. */
function decoder(response: IncomingMessage, url: URL): Readable {
  const encoding = response.headers['content-encoding']?.trim().toLowerCase() ?? 'identity';
  const pipe = (transform: NodeJS.ReadWriteStream) => {
    response.on('error', (error) => (transform as unknown as Readable).destroy(error));
    return response.pipe(transform) as unknown as Readable;
  };
  switch (encoding) {
    case 'identity':
    case '':
      return response;
    case 'gzip':
    case 'x-gzip':
      return pipe(createGunzip());
    case 'deflate':
      return pipe(createInflate());
    case 'br':
      return pipe(createBrotliDecompress());
    default:
      response.destroy();
      throw new SafeFetchError('unreachable', `${truncate(url.href)} was sent with an encoding that cannot be read (${truncate(encoding)}).`);
  }
}

function unreachable(url: URL, error: unknown, signal: AbortSignal): SafeFetchError {
  if (error instanceof SafeFetchError) return error;
  if (signal.aborted) return new SafeFetchError('unreachable', `${truncate(url.href)} did not answer in time.`);
  const code = (error as { code?: unknown }).code;
  const why = typeof code === 'string' ? ` (${code})` : '';
  return new SafeFetchError('unreachable', `${truncate(url.href)} could not be reached${why}; check the address or try again later.`);
}

function truncate(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}
