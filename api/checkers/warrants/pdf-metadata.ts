import { PDFDict, PDFName } from 'pdf-lib';
import type { Signal } from './signal.ts';
import { asDict, lookup, streamBytes, textOf, type RevisionState } from './pdf-objects.ts';
import { parsePdfDate, parseXmpDate, type ParsedDate } from './pdf-dates.ts';
import { pdfSignal, quote } from './pdf-signals.ts';

/** Producers and creators that edit existing PDFs (consumer and online editors), as a person would name them. */
const editors: [RegExp, string][] = [
  [/ilovepdf/i, 'iLovePDF'],
  [/smallpdf/i, 'Smallpdf'],
  [/pdf24/i, 'PDF24'],
  [/sejda/i, 'Sejda'],
  [/pdfescape/i, 'PDFescape'],
  [/pdffiller/i, 'pdfFiller'],
  [/dochub/i, 'DocHub'],
  [/soda ?pdf/i, 'Soda PDF'],
  [/pdf-?xchange ?editor/i, 'PDF-XChange Editor'],
  [/foxit (?:phantompdf|pdf editor)/i, 'Foxit PDF Editor'],
  [/nitro ?pro|nitro pdf/i, 'Nitro PDF'],
  [/pdfelement|wondershare/i, 'Wondershare PDFelement'],
  [/master ?pdf ?editor/i, 'Master PDF Editor'],
  [/pdf ?candy/i, 'PDF Candy'],
  [/icecream ?pdf/i, 'Icecream PDF Editor'],
  [/pdf ?expert/i, 'PDF Expert'],
  [/pdf ?architect/i, 'PDF Architect'],
  [/able2extract/i, 'Able2Extract'],
  [/photoshop/i, 'Adobe Photoshop'],
  [/gimp/i, 'GIMP'],
  [/exiftool/i, 'ExifTool'],
  [/modified using itext|itext.*modified/i, 'iText (modifying an existing file)'],
  [/^draw$|libreoffice draw|openoffice draw/i, 'LibreOffice Draw (PDF import)'],
];

/** Software that writes financial documents from records: a PDF claiming one of these was generated, not typed. */
const generators = /xero|myob|quickbooks|intuit|sage|reckon|freshbooks|zoho|crystal reports|bi publisher|sap\b|dynamics|netsuite|jasperreports|birt|finacle|flexcube|bancs|temenos|t24|keypay|employment hero|payroll|microsoft.*(word|excel)|libreoffice writer|writer$/i;

export interface DocumentMetadata {
  producer: string | null;
  creator: string | null;
}

/** The producer and creator as Info and XMP state them, and the XMP packet they were read from. */
interface MetadataFields {
  producer: string | null;
  creator: string | null;
  xmpProducer: string | null;
  xmpCreator: string | null;
  xmp: string | null;
  /** A text entry of the Info dictionary, or null when there is none. */
  infoText: (key: string) => string | null;
}

/** Metadata signals: editors, producer/creator pairs, Info against XMP, dates, edit-tool traces. */
export function metadataSignals(text: string, state: RevisionState | null, now: string): { signals: Signal[]; metadata: DocumentMetadata } {
  const fields = readFields(text, state);
  const signals = [
    ...editorSignals(fields),
    ...(fields.xmp ? infoXmpSignals(fields, fields.xmp) : []),
    ...dateSignals(fields, now),
    ...editTraceSignals(text, fields.xmp),
    ...(state ? pieceInfoSignals(state) : []),
  ];
  return { signals, metadata: { producer: fields.producer ?? fields.xmpProducer, creator: fields.creator ?? fields.xmpCreator } };
}

function readFields(text: string, state: RevisionState | null): MetadataFields {
  const context = state?.context;
  const info = state?.info ?? null;
  const infoText = (key: string): string | null => (context && info ? textOf(context, lookup(context, info, key)) : null);
  const xmpBytes = context && state?.root ? streamBytes(context, state.root.get(PDFName.of('Metadata'))) : null;
  const xmp = xmpBytes ? Buffer.from(xmpBytes).toString('utf8') : xmpPacketIn(text);
  return { producer: infoText('Producer'), creator: infoText('Creator'), xmpProducer: xmpValue(xmp, 'pdf:Producer'), xmpCreator: xmpValue(xmp, 'xmp:CreatorTool'), xmp, infoText };
}

/** Editing software named by the producer or creator, and a generator's creator over an editor's producer. */
function editorSignals({ producer, creator, xmpProducer, xmpCreator }: MetadataFields): Signal[] {
  const signals: Signal[] = [];
  const editorHits = new Map<string, string>();
  for (const [label, value] of [['Producer', producer], ['Creator', creator], ['XMP pdf:Producer', xmpProducer], ['XMP xmp:CreatorTool', xmpCreator]] as const) {
    const editor = value ? editorName(value) : null;
    if (editor && !editorHits.has(editor)) editorHits.set(editor, `${label} ${quote(value!, 60)}`);
  }
  for (const [editor, where] of editorHits) signals.push(pdfSignal('editor_software', `${where} names ${editor}, software that edits existing PDFs.`, { field: where.split(' "')[0] }));

  const claimed = [creator, xmpCreator].find((value) => value && generators.test(value) && !editorName(value));
  const editingProducer = [producer, xmpProducer].find((value) => value && editorName(value));
  if (claimed && editingProducer) {
    signals.push(pdfSignal('producer_creator_mismatch', `The creator says ${quote(claimed, 60)} but the producer is ${quote(editingProducer, 60)} (${editorName(editingProducer)}): the file was last written by an editor, not by the program that made it.`, { field: 'Producer' }));
  }
  return signals;
}

/** Info and XMP disagreeing on the producer, the creator or a date: one was rewritten without the other. */
function infoXmpSignals({ producer, creator, xmpProducer, xmpCreator, infoText }: MetadataFields, xmp: string): Signal[] {
  const signals: Signal[] = [];
  const pairs: [string, string | null, string | null][] = [
    ['Producer', producer, xmpProducer],
    ['Creator / CreatorTool', creator, xmpCreator],
  ];
  for (const [label, fromInfo, fromXmp] of pairs) {
    if (fromInfo && fromXmp && normalise(fromInfo) !== normalise(fromXmp)) {
      signals.push(pdfSignal('info_xmp_mismatch', `${label} differs: Info says ${quote(fromInfo, 60)}, XMP says ${quote(fromXmp, 60)}; one was rewritten without the other.`, { field: label }));
    }
  }
  for (const [key, xmpKey] of [['CreationDate', 'xmp:CreateDate'], ['ModDate', 'xmp:ModifyDate']] as const) {
    const fromInfo = infoText(key);
    const fromXmp = xmpValue(xmp, xmpKey);
    if (!fromInfo || !fromXmp) continue;
    const a = parsePdfDate(fromInfo);
    const b = parseXmpDate(fromXmp);
    if (a.kind === 'ok' && b.kind === 'ok' && Math.abs(a.instant - b.instant) > 120_000) {
      signals.push(pdfSignal('info_xmp_mismatch', `${key} differs: Info says ${fromInfo}, XMP ${xmpKey} says ${fromXmp}.`, { field: key }));
    }
  }
  return signals;
}

/** Dates that are malformed, a modification before the creation, and dates after the inspection. */
function dateSignals({ infoText, xmp }: MetadataFields, now: string): Signal[] {
  const signals: Signal[] = [];
  const dates: { label: string; parsed: ParsedDate }[] = [];
  for (const key of ['CreationDate', 'ModDate']) {
    const value = infoText(key);
    if (value) dates.push({ label: key, parsed: parsePdfDate(value) });
  }
  for (const key of ['xmp:CreateDate', 'xmp:ModifyDate', 'xmp:MetadataDate']) {
    const value = xmpValue(xmp, key);
    if (value) dates.push({ label: key, parsed: parseXmpDate(value) });
  }
  for (const date of dates) {
    if (date.parsed.kind === 'malformed') signals.push(pdfSignal('malformed_date', `${date.label} ${quote(date.parsed.text, 40)} is not a valid date.`, { field: date.label }));
  }
  const instant = (label: string): number | null => {
    const date = dates.find((item) => item.label === label)?.parsed;
    return date?.kind === 'ok' ? date.instant : null;
  };
  const created = instant('CreationDate') ?? instant('xmp:CreateDate');
  const modified = instant('ModDate') ?? instant('xmp:ModifyDate');
  if (created !== null && modified !== null && modified < created - 60_000) {
    signals.push(pdfSignal('moddate_before_creation', `The modification date (${new Date(modified).toISOString()}) is before the creation date (${new Date(created).toISOString()}).`, { field: 'ModDate' }));
  }
  const nowInstant = Date.parse(now);
  for (const date of dates) {
    if (date.parsed.kind === 'ok' && date.parsed.instant > nowInstant + 86_400_000) {
      signals.push(pdfSignal('future_date', `${date.label} ${date.parsed.text} is after the time of inspection (${now}).`, { field: date.label }));
    }
  }
  return signals;
}

/** Traces edit tools leave in the bytes: an ExifTool update block, editors in the XMP save history. */
function editTraceSignals(text: string, xmp: string | null): Signal[] {
  const signals: Signal[] = [];
  const exiftoolAt = text.indexOf('%BeginExifToolUpdate');
  if (exiftoolAt >= 0) signals.push(pdfSignal('exiftool_update', 'An ExifTool update block (%BeginExifToolUpdate) is in the file: its metadata was rewritten with ExifTool, and the earlier values are still in the bytes before it.', { byte_offset: exiftoolAt }));
  const agents = xmpHistoryAgents(xmp ?? '');
  const editingAgents = agents.filter((agent) => editorName(agent));
  if (editingAgents.length > 0) signals.push(pdfSignal('xmp_edit_history', `The XMP history records saves by ${[...new Set(editingAgents)].slice(0, 4).map((agent) => quote(agent, 50)).join(', ')}.`, { field: 'xmpMM:History' }));
  return signals;
}

/** The first of the catalog and the first 50 pages whose /PieceInfo names an editing program. */
function pieceInfoSignals(state: RevisionState): Signal[] {
  const { context } = state;
  const owners = [['the catalog', state.root], ...state.pages.slice(0, 50).map((page) => [`page ${page.number}`, page.dict] as const)] as const;
  for (const [owner, dict] of owners) {
    const pieceInfo = asDict(lookup(context, dict as PDFDict | null, 'PieceInfo'));
    if (!pieceInfo) continue;
    const apps = pieceInfo.keys().map((key) => key.decodeText());
    const editing = apps.filter((app) => /photoshop|illustrator|touchup|pitstop|enfocus/i.test(app));
    if (editing.length > 0) return [pdfSignal('editor_piece_info', `${owner} carries private data (/PieceInfo) of ${editing.join(', ')}, left when that program edited the file.`, owner.startsWith('page') ? { page: Number(owner.slice(5)) } : {})];
  }
  return [];
}

export function editorName(value: string): string | null {
  return editors.find(([pattern]) => pattern.test(value))?.[1] ?? null;
}

function normalise(value: string): string {
  return value.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** A value from XMP in element (`<pdf:Producer>x</pdf:Producer>`) or attribute (`pdf:Producer="x"`) form. */
export function xmpValue(xmp: string | null, name: string): string | null {
  if (!xmp) return null;
  const escaped = name.replace(':', '\\:');
  const element = new RegExp(`<${escaped}>\\s*(?:<rdf:(?:Alt|Seq|Bag)>\\s*<rdf:li[^>]*>)?([^<]*)<`).exec(xmp);
  const attribute = new RegExp(`${escaped}="([^"]*)"`).exec(xmp);
  const value = (element?.[1] ?? attribute?.[1])?.trim();
  return value ? decodeEntities(value) : null;
}

function xmpHistoryAgents(xmp: string): string[] {
  return [...xmp.matchAll(/stEvt:softwareAgent(?:="([^"]*)"|>([^<]*)<)/g)].map((match) => decodeEntities((match[1] ?? match[2] ?? '').trim())).filter(Boolean);
}

function decodeEntities(value: string): string {
  return value.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

/** An uncompressed XMP packet in the raw bytes, when the object model could not be read. */
function xmpPacketIn(text: string): string | null {
  const start = text.indexOf('<x:xmpmeta');
  if (start < 0) return null;
  const end = text.indexOf('</x:xmpmeta>', start);
  return end > start ? Buffer.from(text.slice(start, end + 12), 'latin1').toString('utf8') : null;
}
