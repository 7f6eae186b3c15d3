/**
 * Where a sign-in link may send the browser after signing in: a path on this site, never another site.
 * Browsers read `//host`, `/\host` and paths with tabs or newlines in them as other sites, so only a
 * single leading `/` with no backslash or control character is taken, and the path is re-read as a URL
 * against a made-up origin of its own to prove it stays there.
 */

const REFERENCE_ORIGIN = 'http://this-site.invalid';
// Backslashes (read as `/` by browsers) and ASCII control characters (stripped by URL parsers, which can join `/` `/`).
const UNSAFE = /[\\\u0000-\u001f\u007f]/;

/** The path, query and fragment of `value` when it is a path on this site; null for anything else. */
export function sameSitePath(value: string): string | null {
  if (!value.startsWith('/') || value.startsWith('//') || UNSAFE.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, REFERENCE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== REFERENCE_ORIGIN) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
