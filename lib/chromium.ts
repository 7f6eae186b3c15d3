/**
 * Debian's Chromium, launched directly: the /usr/bin/chromium wrapper prints noise. The flags keep it
 * off the network it cannot reach here (background services, Google host lookups) and headless as root.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium';

/** `offline` (fixture mode, tests) also stops every host lookup except loopback. */
export function chromiumArgs(options: { offline: boolean }): string[] {
  const args = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
  if (options.offline) args.push('--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1');
  return args;
}
