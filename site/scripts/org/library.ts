// The organisation's document library: each document with its one expiry date, set or deleted by those who
// may change the library, and the upload form.
import { answered, offerUpload, removesItem } from '../../lib/api-controls.ts';
import { callApi } from '../../lib/account-api.ts';
import { DocumentDeleted, DocumentList, LibraryDocument } from '../../lib/bids-api.ts';
import { actionButton, element, marked, say } from '../../lib/dom.ts';
import { bytes, day, plural } from '../../lib/format.ts';

export class Library {
  readonly #status = marked('library-status');
  readonly #list = marked('library');
  readonly #path: string;
  readonly #mayChange: boolean;

  /** The library at `path` (the organisation's `/documents`), changed only when `mayChange`. */
  constructor(path: string, mayChange: boolean) {
    this.#path = path;
    this.#mayChange = mayChange;
  }

  draw(documents: readonly LibraryDocument[]): void {
    say(this.#status, documents.length === 0 ? 'No documents yet.' : `${plural(documents.length, 'document')}, newest first.`);
    this.#list.replaceChildren(...documents.map((doc) => this.#item(doc)));
  }

  /** Reads the library again and draws it. */
  async show(): Promise<void> {
    const reply = await answered(() => callApi(DocumentList, this.#path), this.#status);
    if (reply !== null) this.draw(reply.documents);
  }

  /** The upload form: a stored document is followed by the library read again. */
  offerUploads(): void {
    offerUpload(marked<HTMLFormElement>('upload'), {
      schema: LibraryDocument,
      path: this.#path,
      missing: 'Choose a document first.',
      uploaded: (stored) => `Uploaded ${stored.filename} (${bytes(stored.size_bytes)}).`,
      then: () => this.show(),
    });
  }

  #item(doc: LibraryDocument): HTMLLIElement {
    const item = element('li');
    const what = element('span');
    const expiry = doc.expires_on ? `expires ${day(doc.expires_on)}` : 'no expiry date set';
    what.append(doc.filename, element('br'), element('span', `${bytes(doc.size_bytes)} · uploaded ${day(doc.uploaded_at)} by ${doc.uploaded_by} · ${expiry}`, 'meta'));
    item.append(what);
    if (!this.#mayChange) return item;
    const controls = element('span', undefined, 'controls');
    const dateId = `expiry-${doc.doc_id}`;
    const label = element('label', 'Expiry date');
    label.htmlFor = dateId;
    label.append(element('span', ` of ${doc.filename}`, 'visually-hidden'));
    const date = element('input');
    date.type = 'date';
    date.id = dateId;
    date.value = doc.expires_on ?? '';
    const save = actionButton('Set', `the expiry date of ${doc.filename}`);
    const remove = actionButton('Delete', doc.filename);
    controls.append(label, date, save, remove);
    item.append(controls);
    const docPath = `${this.#path}/${encodeURIComponent(doc.doc_id)}`;
    save.addEventListener('click', async () => {
      const changed = await answered(() => callApi(LibraryDocument, docPath, { method: 'PATCH', body: { expires_on: date.value || null } }), this.#status, save);
      if (changed === null) return;
      item.replaceWith(this.#item(changed));
      say(this.#status, changed.expires_on ? `${doc.filename} now expires ${day(changed.expires_on)}.` : `${doc.filename} has no expiry date now.`);
    });
    removesItem(remove, item, this.#status, () => callApi(DocumentDeleted, docPath, { method: 'DELETE' }), `Deleted ${doc.filename}.`);
    return item;
  }
}
