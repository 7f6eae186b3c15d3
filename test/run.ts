import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';

// Every *.test.ts outside node_modules: unit tests beside their modules, cross-folder tests in test/.
const files = globSync('{lib,sources,pipeline,data,api,test}/**/*.test.ts').sort();
if (files.length === 0) {
  process.stderr.write('no test files found\n');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-timeout=240000', ...process.argv.slice(2), ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
