// Imported first by every entry point: the project is pinned to Node 24 (devDependency `node@24.21.0`),
// and the machine's own Node (20) cannot strip TypeScript types, so fail early with the fix spelled out.
const major = Number(process.versions.node.split('.')[0]);
if (major !== 24) {
  process.stderr.write(
    `This project runs on Node 24 (found ${process.version}).\n` +
      `Run it through npm (npm start, npm test, npm run …) so the pinned node_modules/.bin/node is used.\n` +
      `If that still says Node ${major}, the pinned binary was not installed (e.g. npm install --ignore-scripts): run \`npm rebuild node\`.\n`,
  );
  process.exit(1);
}
