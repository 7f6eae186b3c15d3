import { parseArgs } from 'node:util';
import { dataDir } from '../lib/config.ts';
import type { Fault } from './fixture-server.ts';
import { runNightly } from './nightly.ts';
import { PublishLockHeldError } from './run-lock.ts';
import { summaryTable } from './summary.ts';

const usage = 'usage: npm run nightly -- [--fixtures] [--night night-2] [--data-dir DIR] [--now ISO] [--sources id,id]';

function parseFaults(spec: string | undefined): Record<string, Fault> {
  if (!spec) return {};
  return Object.fromEntries(
    spec.split(',').map((pair) => {
      const [source, fault] = pair.split(':');
      if (!source || (fault !== 'http500' && fault !== 'hang')) throw new Error(`SVC_FIXTURE_FAULTS: "${pair}" is not <source>:http500 or <source>:hang`);
      return [source, fault];
    }),
  );
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      fixtures: { type: 'boolean', default: false },
      night: { type: 'string' },
      'data-dir': { type: 'string' },
      now: { type: 'string' },
      sources: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const now = values.now ? new Date(values.now) : undefined;
  if (now && Number.isNaN(now.getTime())) throw new Error(`--now must be an ISO-8601 instant, got ${values.now}`);
  const faults = parseFaults(process.env.SVC_FIXTURE_FAULTS);
  if (Object.keys(faults).length && !values.fixtures) throw new Error('SVC_FIXTURE_FAULTS only applies with --fixtures');
  if (values.night && !values.fixtures) throw new Error('--night only applies with --fixtures');
  const dir = dataDir(values['data-dir']);
  const { manifest, releaseDir, site, digests } = await runNightly({
    dataDir: dir,
    fixtures: values.fixtures,
    now,
    sourceIds: values.sources?.split(',').map((s) => s.trim()).filter(Boolean),
    faults,
    night: values.night,
  });
  process.stdout.write(`\n${summaryTable(manifest)}\n\nrelease ${manifest.release_id} published at ${releaseDir}\n`);
  process.stdout.write(site.built
    ? `site: ${site.pages} pages built into ${releaseDir}/site\n`
    : `site: build FAILED, the release is published without a site and the previous site is served: ${site.error}\n`);
  if (digests) process.stdout.write(`watch emails: ${digests.sent} sent (${digests.watchers} people with watches)${digests.failed ? `, ${digests.failed} refused by the mail server (retried next run)` : ''}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    // Another host is publishing tonight: not a failure of this host, and nothing to fix in its arguments (75: EX_TEMPFAIL).
    if (error instanceof PublishLockHeldError) {
      process.stderr.write(`nightly: refused: ${error.message}\n`);
      process.exit(75);
    }
    process.stderr.write(`nightly: no release produced: ${error.message}\n${usage}\n`);
    process.exit(1);
  },
);
