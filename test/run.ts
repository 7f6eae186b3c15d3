import { spawn } from 'node:child_process';
import { globSync, readFileSync } from 'node:fs';

// Every *.test.ts outside node_modules: unit tests beside their modules, cross-folder tests in test/.
const files = globSync('{lib,sources,pipeline,data,api,test}/**/*.test.ts').sort();
if (files.length === 0) {
  process.stderr.write('no test files found\n');
  process.exit(1);
}

/**
 * The API's tests, run a second time on PostgreSQL: every test whose state store comes from test/helpers/state.ts,
 * directly or through an app or server helper. Browser journeys, the site build and the slow fuzz run are left to the
 * first pass: they test the site and the parsers, and their state goes through the same routes the API tests cover.
 */
const STATE_HELPERS = /helpers\/(state|org-app|bid-app|checker-app|agent-app|intel-scenario|access|server-process|site-browser)\.ts'/;
const postgresFiles = files.filter((file) => !/(-browser|site-build|\.slow)\.test\.ts$/.test(file) && STATE_HELPERS.test(readFileSync(file, 'utf8')));

const skipped: string[] = [];
const passes: { engine: string; files: string[] }[] = [{ engine: 'sqlite', files }, { engine: 'postgres', files: postgresFiles }];
let code = 0;
for (const { engine, files: passFiles } of passes) {
  process.stdout.write(`\n# state store: ${engine}, ${passFiles.length} test files\n`);
  code = await runPass(engine, passFiles);
  if (code !== 0) break;
}
process.stdout.write(`\n${skipped.length} test${skipped.length === 1 ? '' : 's'} skipped${skipped.length ? `:\n${skipped.map((line) => `  ${line}`).join('\n')}` : '.'}\n`);
process.exit(code);

function runPass(engine: string, passFiles: string[]): Promise<number> {
  const child = spawn(process.execPath, ['--test', '--test-concurrency=2', '--test-timeout=240000', ...process.argv.slice(2), ...passFiles], {
    stdio: ['inherit', 'pipe', 'inherit'],
    env: { ...process.env, STATE_ENGINE: engine },
  });
  // The run's output passes through as it comes; skipped tests are collected so the run ends by naming them:
  // a skip is a figure not measured, and a green run must not hide it.
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (/# SKIP\b|^\s*﹣ /.test(line)) skipped.push(`${line.trim()} (${engine})`);
  });
  return new Promise((resolve) => child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
}
