import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeChromium, parseChromiumVersion, resolveChromium, SYSTEM_CHROMIUM_PATHS, type BundledChromium, type ChromiumProbes } from './chromium.ts';

const HOST_RULE = '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1';
const UNPACKED: BundledChromium = { executablePath: '/scratch/chromium', libraryPath: '/scratch/al2023/lib' };

/** A machine with the given executables; records whether the bundled browser was unpacked. */
function machine(executables: string[], env: Record<string, string | undefined> = {}): Partial<ChromiumProbes> & { unpacked: number } {
  const probes = {
    unpacked: 0,
    env,
    isExecutable: (path: string) => executables.includes(path),
    bundled: async () => {
      probes.unpacked++;
      return UNPACKED;
    },
    version: async (path: string) => (path === UNPACKED.executablePath ? '153.0.8010.0' : '120.0.6099.224'),
  };
  return probes;
}

test('CHROMIUM_PATH wins over an installed Chromium, and nothing is unpacked', async () => {
  const probes = machine(['/opt/chromium/chrome', SYSTEM_CHROMIUM_PATHS[0]!], { CHROMIUM_PATH: '/opt/chromium/chrome' });
  const found = await resolveChromium({ offline: false }, probes);
  assert.deepEqual([found.which, found.executablePath, found.version, found.env], ['configured', '/opt/chromium/chrome', '120.0.6099.224', undefined]);
  assert.equal(probes.unpacked, 0);
});

test('a CHROMIUM_PATH that names no executable is an error naming it, not a quiet fall-back', async () => {
  const probes = machine([SYSTEM_CHROMIUM_PATHS[0]!], { CHROMIUM_PATH: '/opt/missing/chrome' });
  await assert.rejects(resolveChromium({ offline: true }, probes), /^Error: CHROMIUM_PATH is \/opt\/missing\/chrome, which is not an executable file; point it at a Chromium binary, or unset it/);
  assert.equal(probes.unpacked, 0);
});

test('without CHROMIUM_PATH, the first installed Chromium is used', async () => {
  const probes = machine([SYSTEM_CHROMIUM_PATHS[1]!, SYSTEM_CHROMIUM_PATHS[0]!], { CHROMIUM_PATH: '' });
  const found = await resolveChromium({ offline: true }, probes);
  assert.deepEqual([found.which, found.executablePath], ['system', '/usr/lib/chromium/chromium']);
  assert.equal(probes.unpacked, 0);
});

test('with no Chromium on the machine, the bundled one is unpacked and finds its own libraries first', async () => {
  const probes = machine([], { LD_LIBRARY_PATH: '/usr/local/lib', HOME: '/root' });
  const found = await resolveChromium({ offline: true }, probes);
  assert.deepEqual([found.which, found.executablePath, found.version], ['bundled', '/scratch/chromium', '153.0.8010.0']);
  assert.deepEqual(found.env, { LD_LIBRARY_PATH: '/scratch/al2023/lib:/usr/local/lib', HOME: '/root' });
  assert.equal(probes.unpacked, 1);
});

test('every browser runs headless-ready as root; only offline runs stop host lookups', async () => {
  const online = await resolveChromium({ offline: false }, machine([SYSTEM_CHROMIUM_PATHS[0]!]));
  const offline = await resolveChromium({ offline: true }, machine([SYSTEM_CHROMIUM_PATHS[0]!]));
  assert.ok(online.args.includes('--no-sandbox'));
  assert.ok(!online.args.includes(HOST_RULE));
  assert.deepEqual(offline.args, [...online.args, HOST_RULE]);
  assert.ok(!offline.args.includes('--single-process'), 'one process for the whole browser dies when a context closes');
});

test('an installed Chromium draws without a GPU; the bundled headless shell draws through SwiftShader', async () => {
  const installed = await resolveChromium({ offline: true }, machine([SYSTEM_CHROMIUM_PATHS[0]!]));
  const bundled = await resolveChromium({ offline: true }, machine([]));
  assert.ok(installed.args.includes('--disable-gpu'));
  assert.ok(!bundled.args.includes('--disable-gpu'), 'full-page screenshots of the headless shell fail now and then without a GL backend');
  assert.ok(bundled.args.includes('--use-angle=swiftshader') && bundled.args.includes('--in-process-gpu'));
  assert.ok(bundled.args.includes(HOST_RULE));
});

test('a binary that will not tell its version is still used, without one', async () => {
  const found = await resolveChromium({ offline: true }, { ...machine([SYSTEM_CHROMIUM_PATHS[0]!]), version: async () => undefined });
  assert.equal(found.which, 'system');
  assert.equal('version' in found, false);
});

test('versions are read from what each build prints', () => {
  assert.equal(parseChromiumVersion('Chromium 153.0.8010.0\n'), '153.0.8010.0');
  assert.equal(parseChromiumVersion('Chromium 120.0.6099.224 built on Debian 12.4, running on Debian 12.5\n'), '120.0.6099.224');
  assert.equal(parseChromiumVersion('Google Chrome 131.0.6778.85 \n'), '131.0.6778.85');
  assert.equal(parseChromiumVersion('error while loading shared libraries: libnss3.so'), undefined);
});

test('the summary line says where the browser came from', () => {
  assert.equal(describeChromium({ which: 'bundled', version: '153.0.8010.0', executablePath: '/scratch/chromium' }), 'Chromium 153.0.8010.0 bundled in @sparticuz/chromium (unpacked at /scratch/chromium)');
  assert.equal(describeChromium({ which: 'system', version: '120.0.6099.224', executablePath: '/usr/lib/chromium/chromium' }), 'installed Chromium 120.0.6099.224 (/usr/lib/chromium/chromium)');
  assert.equal(describeChromium({ which: 'configured', version: null, executablePath: '/opt/chromium/chrome' }), 'Chromium (version unknown) from CHROMIUM_PATH (/opt/chromium/chrome)');
});
