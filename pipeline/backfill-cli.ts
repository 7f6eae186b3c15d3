import { parseArgs } from 'node:util';
import { z } from 'zod';
import { dataDir } from '../lib/config.ts';
import { DEFAULT_WINDOW_DAYS, runBackfill, type WindowReport } from './backfill.ts';

const usage = 'usage: npm run backfill -- --source ID --from YYYY-MM-DD --to YYYY-MM-DD [--window-days N] [--fixtures] [--no-publish] [--data-dir DIR] [--now ISO]';

const Day = z.iso.date().transform((day) => new Date(`${day}T00:00:00Z`));
const Args = z.object({
  source: z.string().min(1),
  from: Day,
  to: Day,
  'window-days': z.coerce.number().int().min(1).default(DEFAULT_WINDOW_DAYS),
  now: z.iso.datetime({ offset: true }).transform((value) => new Date(value)).optional(),
});

function describeWindow({ window, outcome, records, pages }: WindowReport): string {
  const span = `${window.from.toISOString().slice(0, 10)} to ${window.to.toISOString().slice(0, 10)}`;
  if (outcome === 'skipped') return `${span}: already complete, skipped`;
  return `${span}: ${records} records on ${pages} pages${outcome === 'open' ? ' (not over yet: read again next time)' : ''}`;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      source: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      'window-days': { type: 'string' },
      fixtures: { type: 'boolean', default: false },
      'no-publish': { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      now: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const parsed = Args.safeParse(values);
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`).join('; '));
  const args = parsed.data;
  if (args.to.getTime() <= args.from.getTime()) throw new Error('--to must come after --from');
  const result = await runBackfill({
    dataDir: dataDir(values['data-dir']),
    sourceId: args.source,
    from: args.from,
    to: args.to,
    windowDays: args['window-days'],
    fixtures: values.fixtures,
    now: args.now,
    publish: !values['no-publish'],
    onWindow: (report) => process.stdout.write(`${describeWindow(report)}\n`),
  });
  process.stdout.write(`\n${result.windows} windows: ${result.skipped} already complete, ${result.crawled} read, ${result.records} records\n`);
  if (result.published) process.stdout.write(`release ${result.published.manifest.release_id} published at ${result.published.releaseDir}\n`);
  else if (result.crawled > 0 && !result.stopped) process.stdout.write('staged for the next nightly run (--no-publish)\n');
  if (result.stopped) {
    const { window, diagnosis } = result.stopped;
    process.stderr.write(`backfill: stopped at the window from ${window.from.toISOString().slice(0, 10)}: ${diagnosis}; the windows before it are kept, run the same command again to resume\n`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`backfill: ${error.message}\n${usage}\n`);
    process.exit(1);
  },
);
