import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanSpec, renderSpec, type DocumentSpec } from './documents.ts';
import { withExifSegment } from './exif.ts';
import { imageEdits, pdfEdits, signRevision } from './edits.ts';
import { appendChanges } from './pdf-update.ts';
import { PDFName, PDFString } from 'pdf-lib';
import { cameraShot, scannedPage, type CameraShot } from './images.ts';

/**
 * The warrant corpus: clean originals from several producers and edited copies of them, each edit kind
 * with the signal codes it should raise. `node test/helpers/warrant-corpus/build.ts --write` writes it to
 * fixtures/documents/generated/ with its manifest; test/warrants-corpus-build.test.ts checks the
 * committed files are exactly what this builds.
 */

export const corpusFolder = join(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/documents/generated');

export interface CorpusEntry {
  file: string;
  status: 'clean' | 'edited';
  edit_kind: string | null;
  expected_codes: string[];
  /** The software that made the original (PDF Producer, camera make and model, or scanner). */
  producer: string;
  /** For an edited copy, the clean file it was made from. */
  source: string | null;
  /** For a clean file saved again in the ordinary course (signed, annotated, saved twice), what that save did. */
  benign_update: string | null;
}

export interface CorpusFile {
  entry: CorpusEntry;
  bytes: Uint8Array;
}

const cleanPdfCount = 64;
const cameraCount = 18;
const scanCount = 4;
const pdfCopiesPerKind = 4;
const imageCopiesPerKind = 3;

export async function buildCorpus(): Promise<CorpusFile[]> {
  const files: CorpusFile[] = [];
  const specs: DocumentSpec[] = [];
  const originals = new Map<string, Uint8Array>();
  for (let index = 0; index < cleanPdfCount; index++) {
    const spec = cleanSpec(index);
    const bytes = await renderSpec(spec);
    specs.push(spec);
    originals.set(spec.id, bytes);
    files.push({ entry: { file: `clean/${spec.id}.pdf`, status: 'clean', edit_kind: null, expected_codes: [], producer: spec.producer.producer, source: null, benign_update: null }, bytes });
  }
  files.push(...(await benignUpdates(specs, originals)));
  const shots: CameraShot[] = [];
  for (let index = 0; index < cameraCount; index++) {
    const shot = await cameraShot(index);
    shots.push(shot);
    files.push({ entry: { file: `clean/${shot.id}.jpg`, status: 'clean', edit_kind: null, expected_codes: [], producer: `${shot.exif.make} ${shot.exif.model}`, source: null, benign_update: null }, bytes: withExifSegment(shot.jpeg, shot.exif) });
  }
  for (let index = 0; index < scanCount; index++) {
    const scan = await scannedPage(index);
    files.push({ entry: { file: `clean/${scan.id}.png`, status: 'clean', edit_kind: null, expected_codes: [], producer: 'flatbed scanner (no metadata)', source: null, benign_update: null }, bytes: scan.png });
  }
  for (const [kindIndex, edit] of pdfEdits.entries()) {
    // Spread each kind over different originals: start at a different place in the list for each kind.
    const fitting = specs.filter(edit.fits);
    for (let copy = 0; copy < pdfCopiesPerKind; copy++) {
      const spec = fitting[(kindIndex * 5 + copy * 7) % fitting.length]!;
      const bytes = await edit.apply(spec, originals.get(spec.id)!);
      files.push({ entry: { file: `edited/${edit.kind}--${spec.id}.pdf`, status: 'edited', edit_kind: edit.kind, expected_codes: edit.expected, producer: spec.producer.producer, source: `clean/${spec.id}.pdf`, benign_update: null }, bytes });
    }
  }
  for (const [kindIndex, edit] of imageEdits.entries()) {
    for (let copy = 0; copy < imageCopiesPerKind; copy++) {
      const shot = shots[(kindIndex * 3 + copy * 5) % shots.length]!;
      const bytes = await edit.apply(shot);
      files.push({ entry: { file: `edited/${edit.kind}--${shot.id}.jpg`, status: 'edited', edit_kind: edit.kind, expected_codes: edit.expected, producer: `${shot.exif.make} ${shot.exif.model}`, source: `clean/${shot.id}.jpg`, benign_update: null }, bytes });
    }
  }
  return files;
}

/**
 * Clean files with the structure real documents pick up after they are made: a signature over the whole
 * file, a reviewer's note added as an incremental update, a second save that only touched the Info
 * dictionary. None changes what the pages show, so none should band medium or high.
 */
async function benignUpdates(specs: DocumentSpec[], originals: Map<string, Uint8Array>): Promise<CorpusFile[]> {
  const updates: { name: string; apply: (spec: DocumentSpec, original: Uint8Array) => Promise<Uint8Array> }[] = [
    { name: 'signed', apply: (spec, original) => signRevision(original, spec) },
    {
      name: 'annotated',
      apply: (spec, original) =>
        appendChanges(original, (document) => {
          const page = document.getPage(0);
          const note = document.context.register(
            document.context.obj({ Type: 'Annot', Subtype: 'Text', Rect: [500, 800, 520, 820], Contents: PDFString.of('Checked against the purchase order.'), T: PDFString.of('Accounts'), M: PDFString.fromDate(new Date(spec.modified.getTime() + 86_400_000)), P: page.ref }),
          );
          page.node.set(PDFName.of('Annots'), document.context.obj([note]));
        }),
    },
    {
      name: 'saved_again',
      apply: (spec, original) => appendChanges(original, (document) => document.setModificationDate(new Date(spec.modified.getTime() + 3_600_000))),
    },
  ];
  const files: CorpusFile[] = [];
  for (const [kindIndex, update] of updates.entries()) {
    for (let copy = 0; copy < 3; copy++) {
      const spec = specs[(kindIndex * 11 + copy * 17 + 3) % specs.length]!;
      const bytes = await update.apply(spec, originals.get(spec.id)!);
      files.push({ entry: { file: `clean/${update.name}-${spec.id}.pdf`, status: 'clean', edit_kind: null, expected_codes: [], producer: spec.producer.producer, source: null, benign_update: update.name }, bytes });
    }
  }
  return files;
}

export function manifestOf(files: CorpusFile[]): string {
  return `${JSON.stringify({ description: 'Warrant corpus built by test/helpers/warrant-corpus/build.ts: clean originals and edited copies, each edit with the signal codes it should raise.', files: files.map((file) => file.entry) }, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--write')) {
  const files = await buildCorpus();
  rmSync(join(corpusFolder, 'clean'), { recursive: true, force: true });
  rmSync(join(corpusFolder, 'edited'), { recursive: true, force: true });
  for (const file of files) {
    const path = join(corpusFolder, file.entry.file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.bytes);
  }
  writeFileSync(join(corpusFolder, 'manifest.json'), manifestOf(files));
  const size = files.reduce((sum, file) => sum + file.bytes.length, 0);
  process.stdout.write(`${files.length} files, ${(size / 1024 / 1024).toFixed(2)} MB\n`);
}
