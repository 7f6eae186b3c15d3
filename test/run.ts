import { spawn } from 'node:child_process';
import { globSync } from 'node:fs';

// Every *.test.ts outside node_modules: unit tests beside their modules, cross-folder tests in test/.
const files = globSync('{lib,sources,pipeline,data,api,test}/**/*.test.ts').sort();
if (files.length === 0) {
  process.stderr.write('no test files found\n');
  process.exit(1);
}
const child = spawn(process.execPath, ['--test', '--test-concurrency=2', '--test-timeout=240000', ...process.argv.slice(2), ...files], { stdio: ['inherit', 'pipe', 'inherit'] });
// The run's output passes through as it comes; skipped tests are collected so the run ends by naming them:
// a skip is a figure not measured, and a green run must not hide it.
const skipped: string[] = [];
let pending = '';
child.stdout.on('data', (chunk: Buffer) => {
  process.stdout.write(chunk);
  pending += chunk.toString('utf8');
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) if (/# SKIP\b|^\s*﹣ /.test(line)) skipped.push(line.trim());
});
child.on('exit', (code, signal) => {
  process.stdout.write(`\n${skipped.length} test${skipped.length === 1 ? '' : 's'} skipped${skipped.length ? `:\n${skipped.map((line) => `  ${line}`).join('\n')}` : '.'}\n`);
  process.exit(code ?? (signal ? 1 : 0));
});
