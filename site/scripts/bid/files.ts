// The bid's tender files: the list (each with its link and page text) and the upload form, whose file's
// requirements are read as it is stored.
import { offerUpload } from '../../lib/api-controls.ts';
import { fileItem } from '../../lib/bid-items.ts';
import { BidFile } from '../../lib/bids-api.ts';
import { marked, say } from '../../lib/dom.ts';
import { bytes, plural } from '../../lib/format.ts';
import type { BidState } from './bid-state.ts';

export function filesSection(state: BidState): void {
  const status = marked('files-status');
  state.drawsWith(() => {
    const { files } = state.overview;
    say(status, files.length === 0 ? 'No files yet: upload the tender documents.' : `${plural(files.length, 'file')}.`);
    marked('files').replaceChildren(...files.map((file) => fileItem(state.view, file)));
  });
  offerUpload(marked<HTMLFormElement>('upload'), {
    schema: BidFile,
    path: state.view.api('/files'),
    missing: 'Choose a file first.',
    uploaded: (stored) => `Uploaded ${stored.filename} (${bytes(stored.size_bytes)}): ${stored.read_status === 'read' ? `${plural(stored.pages_read, 'page')} read.` : `its text could not be read: ${stored.read_detail ?? 'no reason given'}.`}`,
    then: (refused) => state.refreshInto(refused),
  });
}
