// Loaded with `node --import ./lib/node-guard.mjs` ahead of every entry point. It is plain JavaScript on
// purpose: the machine's own Node (20) cannot strip TypeScript types, so a .ts guard would never get to speak.
// The project is pinned to Node 24 (devDependency `node@24.21.0`); say how to get it.
const major = Number(process.versions.node.split('.')[0]);
if (major !== 24) {
  process.stderr.write(
    `This project runs on Node 24 (found ${process.version}).\n` +
      'Run it through npm (npm start, npm test, npm run …) so the pinned node_modules/.bin/node is used.\n' +
      `If that still says Node ${major}, the pinned binary was not installed (e.g. npm install --ignore-scripts): run \`npm rebuild node\`.\n`,
  );
  process.exit(1);
}
