import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FIXTURES_ROOT, readFixtureMeta } from '../pipeline/fixture-meta.ts';
import { loadRegistry } from '../sources/_contract/registry.ts';

const sources = await loadRegistry();

test('the registry holds every adapter in sources/, with unique ids and tags', async () => {
  const files = (await readdir(new URL('../sources/', import.meta.url))).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  assert.deepEqual(sources.map((s) => `${s.id}.ts`).sort(), files.sort());
  assert.ok(sources.length >= 20, `the registry holds the twenty-odd sources a user expects, not ${sources.length}`);
  assert.equal(new Set(sources.map((s) => s.tag)).size, sources.length);
});

for (const source of sources) {
  test(`${source.id}: metadata is complete and its fixtures are recorded`, async () => {
    assert.ok(source.id.startsWith(source.jurisdiction === 'NZ' ? 'nz_' : 'au_'), 'ids start with the jurisdiction');
    for (const field of ['name', 'licence', 'attribution', 'homepage', 'origin'] as const) assert.ok(source[field].trim(), `${field} is set`);
    assert.ok(URL.canParse(source.origin) && URL.canParse(source.homepage));
    assert.ok(source.kinds.length > 0);
    assert.ok(source.politeness.maxConcurrency >= 1 && source.politeness.timeoutSecs > 0 && source.politeness.maxRetries >= 0);
    const adapter = await readFile(new URL(`../sources/${source.id}.ts`, import.meta.url), 'utf8');
    assert.ok(/politeness:\s*\{[\s\S]*?\/\/ why:/.test(adapter) || /politeness: DEFAULT_POLITENESS/.test(adapter), 'each politeness knob carries a // why');

    const meta = await readFixtureMeta(source.id);
    assert.equal(meta.source, source.id);
    assert.ok(meta.provenance.length > 20, 'fixtures say where they came from');
    assert.ok(meta.real_capture, '_meta.json says how far the fixtures follow a real capture (real_capture)');
    const fromCaptures = meta.files.filter((f) => f.origin === 'capture' || f.origin === 'derived');
    if (meta.real_capture === 'none') {
      assert.deepEqual(fromCaptures, [], 'no file comes from a capture when none was found');
      assert.ok(source.caveats.some((c) => /unverified|not verified|no (public |real )?capture/i.test(c)), 'a source with no real capture says so in its caveats');
    } else {
      assert.ok(meta.captures.length > 0, 'the captures the fixtures follow are named (repository, path, commit)');
      assert.ok(fromCaptures.length > 0, 'at least one file follows a capture');
    }
    const syntheticPages = meta.files.filter((f) => f.file && f.origin === 'synthetic' && f.status < 400);
    if (meta.real_capture === 'real') assert.deepEqual(syntheticPages.map((f) => f.file), [], 'a real set has no synthetic page (a synthetic error reply may stand in for a failure)');
    for (const file of meta.files) {
      if (file.file) assert.ok(existsSync(join(FIXTURES_ROOT, source.id, file.file)), `${file.file} exists`);
      assert.ok(new URL(file.url).origin === new URL(source.origin).origin, `${file.url} is on the source's origin`);
    }
    const start = source.start({ url: (p) => `https://fixture.test${p.startsWith('/') ? p : new URL(p).pathname}`, publicUrl: (u) => u, now: new Date(meta.captured_at), lastSuccessAt: null });
    if (source.access?.kind === 'login_walled') {
      assert.ok(source.access.why.length > 20, 'a login-walled source says why');
      assert.deepEqual(start, [], 'a login-walled source requests nothing');
    } else {
      assert.ok(start.length > 0 && start.every((r) => r.label in source.routes), 'start requests route to handlers');
    }
  });
}

test('the README source table shows which fixtures follow a real capture, as _meta.json says', async () => {
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  const header = readme.split('\n').find((line) => line.startsWith('| id | tag |'));
  assert.ok(header, 'the README has the source table');
  const column = header.split('|').map((cell) => cell.trim()).indexOf('fixtures');
  assert.ok(column > 0, 'the source table has a fixtures column');
  const shown = new Map(
    readme
      .split('\n')
      .filter((line) => /^\| `[a-z_]+` \|/.test(line))
      .map((line) => {
        const cells = line.split('|').map((cell) => cell.trim());
        return [(cells[1] ?? '').replaceAll('`', ''), cells[column]] as const;
      }),
  );
  const label = { real: 'real capture', partial: 'partly real', none: 'no capture' } as const;
  for (const source of sources) {
    const meta = await readFixtureMeta(source.id);
    assert.equal(shown.get(source.id), meta.real_capture ? label[meta.real_capture] : undefined, `${source.id}'s row`);
  }
});
