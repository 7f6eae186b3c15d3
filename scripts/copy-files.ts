/**
 * Copies the bid files and library documents kept in a data folder (`<data dir>/state/bid-files/`, `…/documents/`) to the file store `SVC_FILE_STORE_URL`
 * names, before API instances start on it (lib/file-store/README.md). Keys already there are left; run it again to
 * copy what came since. Credentials come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.
 *
 *   SVC_FILE_STORE_URL='s3://bucket/prefix?region=ap-southeast-2' node --import ./lib/node-guard.mjs scripts/copy-files.ts [--data-dir DIR]
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BID_FILES_PREFIX } from '../api/bids/file-store.ts';
import { DOCUMENTS_PREFIX } from '../api/orgs/documents.ts';
import { dataDir as dataDirFrom, fileStoreUrl } from '../lib/config.ts';
import { copyFiles } from '../lib/file-store/copy.ts';
import { FolderFileStore } from '../lib/file-store/folder-store.ts';
import { openFileStore } from '../lib/file-store/open.ts';

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' } }, strict: true });
const url = fileStoreUrl();
if (url === undefined) {
  console.error('Set SVC_FILE_STORE_URL to the store to copy to (s3://bucket/prefix?endpoint=…&region=…).');
  process.exit(2);
}
const folder = new FolderFileStore(join(dataDirFrom(values['data-dir']), 'state'));
const target = await openFileStore({ url, folder: folder.description });
try {
  const report = await copyFiles(folder, target, [`${BID_FILES_PREFIX}/`, `${DOCUMENTS_PREFIX}/`]);
  console.log(`${report.copied} file(s) copied from ${folder.description} to ${target.description}; ${report.present} already there`);
} finally {
  target.close();
}
