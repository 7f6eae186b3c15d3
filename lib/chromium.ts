import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { withFileLock } from './file-lock.ts';

/** Where the browser came from: `CHROMIUM_PATH`, a Chromium installed on the machine, or the npm package's own. */
export type ChromiumOrigin = 'configured' | 'system' | 'bundled';

export interface Chromium {
  executablePath: string;
  args: string[];
  which: ChromiumOrigin;
  /** From the binary's `--version`; absent when it would not say. */
  version?: string;
  /** The browser process's environment, when it needs more than ours (the bundled browser's own libraries). */
  env?: Record<string, string>;
}

/**
 * Installed builds, launched directly (the /usr/bin wrappers print noise): Debian's `chromium` package,
 * then Google Chrome's .deb.
 */
export const SYSTEM_CHROMIUM_PATHS = ['/usr/lib/chromium/chromium', '/opt/google/chrome/chrome'];

/**
 * The same flags for every browser: headless as root, and off the network it has no business on (background
 * services, Google host lookups, reliability reports, hyperlink pings). None of @sparticuz/chromium's own
 * `args` is needed on Debian, and some hurt: `--single-process` takes the whole browser down when a browser
 * context closes (every `browser.newPage()` page closing does that), and `--disable-web-security` /
 * `--allow-running-insecure-content` would lower the guard on the pages we crawl.
 */
const COMMON_ARGS = [
  '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run', '--disable-domain-reliability', '--no-pings',
];
/** An installed Chromium draws without a GPU. */
const INSTALLED_GPU_ARGS = ['--disable-gpu'];
/**
 * The bundled headless shell draws through SwiftShader in process, as @sparticuz/chromium sets it up: with
 * `--disable-gpu` instead, 3 of 30 full-page screenshots failed here ("Unable to capture screenshot"), none this way.
 */
const BUNDLED_GPU_ARGS = ['--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--in-process-gpu'];
/** Offline (fixture mode, tests): every host lookup fails except loopback's. */
const OFFLINE_ARGS = ['--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1'];

export interface BundledChromium {
  executablePath: string;
  /** The folder of the libraries the package ships beside its browser (NSS), for a machine that lacks them. */
  libraryPath: string;
}

export interface ChromiumProbes {
  /** Our environment: `CHROMIUM_PATH`, and what the bundled browser's environment starts from. */
  env: Record<string, string | undefined>;
  isExecutable(path: string): boolean;
  /** Unpacks the Chromium inside @sparticuz/chromium, or finds it already unpacked. */
  bundled(): Promise<BundledChromium>;
  /** The binary's version, or undefined when it would not say. */
  version(executablePath: string, env?: Record<string, string>): Promise<string | undefined>;
}

/**
 * The browser the crawler and the browser tests launch: `CHROMIUM_PATH` when set (an error when it names no
 * executable file), else an installed Chromium, else the one inside the npm package @sparticuz/chromium, so
 * `npm install` alone brings a browser.
 */
export async function resolveChromium(options: { offline: boolean }, probes: Partial<ChromiumProbes> = {}): Promise<Chromium> {
  const { env = process.env, isExecutable = isExecutableFile, bundled = unpackBundledChromium, version = chromiumVersion } = probes;
  const argsWith = (gpuArgs: string[]) => [...COMMON_ARGS, ...gpuArgs, ...(options.offline ? OFFLINE_ARGS : [])];
  const args = argsWith(INSTALLED_GPU_ARGS);
  const withVersion = async (chromium: Chromium): Promise<Chromium> => {
    const found = await version(chromium.executablePath, chromium.env);
    return found === undefined ? chromium : { ...chromium, version: found };
  };

  const configured = env.CHROMIUM_PATH;
  if (configured) {
    if (!isExecutable(configured)) {
      throw new Error(`CHROMIUM_PATH is ${configured}, which is not an executable file; point it at a Chromium binary, or unset it to use an installed Chromium or the one in @sparticuz/chromium`);
    }
    return withVersion({ executablePath: configured, args, which: 'configured' });
  }
  const installed = SYSTEM_CHROMIUM_PATHS.find((path) => isExecutable(path));
  if (installed) return withVersion({ executablePath: installed, args, which: 'system' });
  const unpacked = await bundled();
  // Its own NSS goes first on the library path, so a machine without libnss3 runs it too.
  const libraryPath = [unpacked.libraryPath, env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  return withVersion({ executablePath: unpacked.executablePath, args: argsWith(BUNDLED_GPU_ARGS), which: 'bundled', env: { ...definedEntries(env), LD_LIBRARY_PATH: libraryPath } });
}

/** One line for the run summary and the tests' output: which browser, its version and where it is. */
export function describeChromium(chromium: { executablePath: string; which: ChromiumOrigin; version?: string | null }): string {
  const name = `Chromium ${chromium.version ?? '(version unknown)'}`;
  if (chromium.which === 'configured') return `${name} from CHROMIUM_PATH (${chromium.executablePath})`;
  if (chromium.which === 'system') return `installed ${name} (${chromium.executablePath})`;
  return `${name} bundled in @sparticuz/chromium (unpacked at ${chromium.executablePath})`;
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** "Chromium 153.0.8010.0", "Chromium 120.0.6099.224 built on Debian 12.4", "Google Chrome 131.0.6778.85". */
export function parseChromiumVersion(output: string): string | undefined {
  return /\b(\d+\.\d+\.\d+\.\d+)\b/.exec(output)?.[1];
}

async function chromiumVersion(executablePath: string, env?: Record<string, string>): Promise<string | undefined> {
  try {
    const { stdout } = await promisify(execFile)(executablePath, ['--version'], { timeout: 10_000, env });
    return parseChromiumVersion(stdout);
  } catch {
    return undefined;
  }
}

/**
 * The package unpacks into the temporary folder, where a later call finds it whole. Test files run in
 * parallel, so the unpack is done under a lock: a second process would otherwise find a half-written binary.
 */
async function unpackBundledChromium(): Promise<BundledChromium> {
  const { default: chromium, inflate } = await import('@sparticuz/chromium');
  const packageBin = fileURLToPath(new URL('../bin/', import.meta.resolve('@sparticuz/chromium')));
  return withFileLock(join(tmpdir(), 'chromium-unpack.lock'), async () => {
    const executablePath = await chromium.executablePath();
    // The package unpacks these only on Amazon Linux; elsewhere they serve a machine without them.
    const libraries = await inflate(join(packageBin, 'al2023.tar.br'));
    return { executablePath, libraryPath: join(libraries, 'lib') };
  });
}

function definedEntries(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
