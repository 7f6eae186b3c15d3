import type { Signal, SignalGroup, SignalSeverity } from './signal.ts';

/**
 * Every PDF signal the engine can raise: its stable code, group, usual severity and title. Severity may be
 * raised or lowered for one finding where the finding says why (e.g. a change after signing is `high` only
 * when page text changed).
 */
export const pdfSignalCatalogue = {
  // structure: how the file was saved
  incremental_update: { group: 'structure', severity: 'info', title: 'Incremental update' },
  bytes_after_last_eof: { group: 'structure', severity: 'low', title: 'Bytes after the last %%EOF' },
  startxref_invalid: { group: 'structure', severity: 'low', title: 'startxref points nowhere' },
  xref_missing: { group: 'structure', severity: 'low', title: 'No cross-reference section' },
  xref_broken: { group: 'structure', severity: 'medium', title: 'Cross-reference entries point to the wrong bytes' },
  xref_mixed: { group: 'structure', severity: 'info', title: 'Cross-reference tables and streams mixed' },
  prev_chain_broken: { group: 'structure', severity: 'medium', title: '/Prev chain broken' },
  linearized: { group: 'structure', severity: 'info', title: 'Linearised for fast web view' },
  object_streams: { group: 'structure', severity: 'info', title: 'Compressed object streams' },
  header_not_at_start: { group: 'structure', severity: 'low', title: 'Bytes before the %PDF header' },
  encrypted: { group: 'structure', severity: 'low', title: 'Encrypted' },
  stream_inflation_limit: { group: 'structure', severity: 'medium', title: 'Stream inflates past the limit' },
  revision_unreadable: { group: 'structure', severity: 'low', title: 'A revision could not be read' },
  javascript: { group: 'structure', severity: 'medium', title: 'JavaScript' },
  open_action: { group: 'structure', severity: 'info', title: 'Action on open' },
  launch_action: { group: 'structure', severity: 'medium', title: 'Launch action' },
  additional_actions: { group: 'structure', severity: 'low', title: 'Additional actions (/AA)' },
  submit_or_import_action: { group: 'structure', severity: 'low', title: 'Form submit or import action' },
  embedded_file: { group: 'structure', severity: 'medium', title: 'Embedded file' },
  acroform: { group: 'structure', severity: 'info', title: 'Interactive form' },
  xfa_form: { group: 'structure', severity: 'low', title: 'XFA form' },
  rich_media: { group: 'structure', severity: 'low', title: 'Rich media' },
  name_obfuscation: { group: 'structure', severity: 'medium', title: 'Hex-escaped keyword names' },
  digital_signature: { group: 'structure', severity: 'info', title: 'Digital signature' },
  // tampering: what a later save changed
  page_text_changed: { group: 'tampering', severity: 'high', title: 'Page text changed in a later revision' },
  page_content_changed: { group: 'tampering', severity: 'medium', title: 'Page drawing changed in a later revision' },
  page_count_changed: { group: 'tampering', severity: 'medium', title: 'Pages added or removed in a later revision' },
  form_value_changed: { group: 'tampering', severity: 'low', title: 'Form value changed in a later revision' },
  annotation_added: { group: 'tampering', severity: 'low', title: 'Annotation added in a later revision' },
  info_changed: { group: 'tampering', severity: 'low', title: 'Document information changed in a later revision' },
  modified_after_signing: { group: 'tampering', severity: 'medium', title: 'Changed after signing' },
  signature_byte_range_invalid: { group: 'tampering', severity: 'high', title: 'Signature byte range invalid' },
  change_not_permitted: { group: 'tampering', severity: 'high', title: 'Change the signature does not permit' },
  touchup_text_edit: { group: 'tampering', severity: 'high', title: 'Acrobat text edit marker' },
  font_subset_duplicate: { group: 'tampering', severity: 'low', title: 'Font subset more than once' },
  text_over_text: { group: 'tampering', severity: 'medium', title: 'Text drawn over text' },
  white_box_over_text: { group: 'tampering', severity: 'high', title: 'White box drawn over text' },
  einvoice_print_mismatch: { group: 'tampering', severity: 'high', title: 'Embedded e-invoice and printed page disagree' },
  einvoice_print_agrees: { group: 'tampering', severity: 'info', title: 'Embedded e-invoice agrees with the printed page' },
  einvoice_lines_do_not_add_up: { group: 'tampering', severity: 'medium', title: "Embedded e-invoice's lines do not add up to the sum it states" },
  // metadata: what the file says about itself
  editor_software: { group: 'metadata', severity: 'low', title: 'PDF editor in the metadata' },
  producer_creator_mismatch: { group: 'metadata', severity: 'medium', title: 'Producer and creator disagree' },
  info_xmp_mismatch: { group: 'metadata', severity: 'medium', title: 'Info dictionary and XMP disagree' },
  moddate_before_creation: { group: 'metadata', severity: 'medium', title: 'Modified before created' },
  future_date: { group: 'metadata', severity: 'medium', title: 'Date in the future' },
  malformed_date: { group: 'metadata', severity: 'low', title: 'Malformed date' },
  exiftool_update: { group: 'metadata', severity: 'medium', title: 'ExifTool metadata update' },
  xmp_edit_history: { group: 'metadata', severity: 'medium', title: 'Editing software in the XMP history' },
  editor_piece_info: { group: 'metadata', severity: 'low', title: 'Editor private data (/PieceInfo)' },
  no_text_layer: { group: 'structure', severity: 'info', title: 'No text layer' },
} as const satisfies Record<string, { group: SignalGroup; severity: SignalSeverity; title: string }>;

export type PdfSignalCode = keyof typeof pdfSignalCatalogue;

export function pdfSignal(code: PdfSignalCode, found: string, where: Signal['where'], severity: SignalSeverity = pdfSignalCatalogue[code].severity): Signal {
  const entry = pdfSignalCatalogue[code];
  return { code, group: entry.group, severity, title: entry.title, found, where };
}

/** A short quoted excerpt for a `found` sentence. */
export function quote(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `"${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}"`;
}
