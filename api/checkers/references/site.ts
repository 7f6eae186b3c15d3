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

/** The address's registrable domain, or null when it is not an http(s) address. */
export function siteOfUrl(address: string): string | null {
  try {
    const url = new URL(address);
    return url.protocol === 'http:' || url.protocol === 'https:' ? registrableDomain(url.hostname) : null;
  } catch {
    return null;
  }
}
