// The export's two downloads: the Word document and the Markdown.
import { link, marked } from '../../lib/dom.ts';
import type { BidState } from './bid-state.ts';

export function offerExport(state: BidState): void {
  const download = (text: string, href: string) => {
    const anchor = link(text, href);
    anchor.download = '';
    return anchor;
  };
  marked('export').append(download('Word document (.docx)', state.view.api('/export')), ' · ', download('Markdown', state.view.api('/export?format=md')));
}
