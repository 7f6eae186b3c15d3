/**
 * Which site an address belongs to, so a page's links to its own site (menus, tags, other articles, its
 * own permalink) are told from the links it cites. Hand-written because no public-suffix library is among
 * the project's dependencies: the registrable domain is the last two labels of the host, or the last three
 * under a two-letter country domain whose second level is a generic one (`bbc.co.uk`, `abc.net.au`,
 * `health.gov.au` → `gov.au` + `health`). That covers the country domains in use here; a full public-suffix
 * list would add private suffixes (`github.io` sites are told apart only when their hosts differ).
 */

const GENERIC_SECOND_LEVEL = new Set(['ac', 'asn', 'co', 'com', 'edu', 'gob', 'gov', 'govt', 'gouv', 'id', 'iwi', 'ltd', 'mil', 'ne', 'net', 'nhs', 'nic', 'nom', 'or', 'org', 'plc', 'sch', 'school']);
/** Hosts whose sub-domains are separate sites, each kept whole. */
const SHARED_HOSTS = new Set(['github.io', 'blogspot.com', 'wordpress.com', 'substack.com', 'medium.com', 'tumblr.com', 'netlify.app', 'pages.dev', 'web.app']);

/** The registrable domain of `host` (lower case, no `www.`), e.g. `en.wikipedia.org` → `wikipedia.org`. */
export function registrableDomain(host: string): string {
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  const lastTwo = labels.slice(-2).join('.');
  if (SHARED_HOSTS.has(lastTwo)) return labels.slice(-3).join('.');
  const top = labels.at(-1) ?? '';
  if (labels.length > 2 && top.length === 2 && GENERIC_SECOND_LEVEL.has(labels.at(-2)!)) return labels.slice(-3).join('.');
  return lastTwo;
}

/**
 * The name a site goes by across its domains: the registrable domain without its suffix (`bbc` for both
 * `bbc.com` and `bbc.co.uk`), so an organisation's links to its other national domains count as its own.
 */
export function siteName(domain: string): string {
  return domain.split('.')[0]!;
}

/** Whether `address` is on the site `site` (a registrable domain), by the site's name. */
export function isOnSite(address: string, site: string): boolean {
  const domain = siteOfUrl(address);
  return domain !== null && siteName(domain) === siteName(site);
}

/** The address's registrable domain, or null when it is not an http(s) address. */
export function siteOfUrl(address: string): string | null {
  try {
    const url = new URL(address);
    return url.protocol === 'http:' || url.protocol === 'https:' ? registrableDomain(url.hostname) : null;
  } catch {
    return null;
  }
}

/** The second-level names RFC 2606 reserves for documentation, which documents use in sample addresses. */
const SAMPLE_DOMAINS = new Set(['example.com', 'example.net', 'example.org']);
/** Social networks whose one-segment paths are profiles (`twitter.com/livescience`), and hosts that are only ever profiles or invitations. */
const PROFILE_HOSTS = new Set(['twitter.com', 'x.com', 'facebook.com', 'instagram.com', 'linkedin.com', 'pinterest.com', 'tiktok.com', 'threads.net', 'youtube.com', 'github.com', 'medium.com', 'reddit.com']);
const PROFILE_ONLY_HOSTS = new Set(['plus.google.com', 'discord.gg', 't.me']);
const PROFILE_PREFIXES = /^\/(?:in|company|channel|user|c|school|showcase)\/[^/]+\/?$/;

/**
 * A sample address (`https://example.com/path`) or a social-network profile (`twitter.com/livescience`,
 * `facebook.com/#!/livescience`, a LinkedIn or YouTube channel page): a link to follow someone, not a source.
 * A post (`twitter.com/x/status/1`, a video, a repository) is a source and is not matched.
 */
export function isProfileOrSampleAddress(address: string): boolean {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase().replace(/^(?:www|m|mobile)\./, '');
  if (SAMPLE_DOMAINS.has(registrableDomain(host))) return true;
  if (PROFILE_ONLY_HOSTS.has(host)) return true;
  if (!PROFILE_HOSTS.has(host)) return false;
  const path = (url.hash.startsWith('#!/') ? url.hash.slice(2) : url.pathname).replace(/\/+$/, '');
  const segments = path.split('/').filter((segment) => segment !== '');
  if (host === 'youtube.com' || host === 'linkedin.com') return PROFILE_PREFIXES.test(`${path}/`) || (segments.length === 1 && segments[0]!.startsWith('@'));
  if (host === 'reddit.com') return /^\/(?:r|u|user)\/[^/]+$/.test(path);
  return segments.length === 1 && !/\.(?:html?|php|aspx?)$/i.test(segments[0]!);
}
