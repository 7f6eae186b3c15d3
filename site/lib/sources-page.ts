import { fieldName, sentenceCase } from '../../lib/glossary.ts';

/** How often a source is read (its `refresh`), in words. */
export function refreshWords(refresh: string): string {
  if (refresh === 'incremental') return 'every night, new and changed notices';
  if (refresh === 'snapshot') return 'every night, the whole list afresh';
  return `${sentenceCase(refresh).toLowerCase()}`;
}

/**
 * A source's caveat as a reader reads it: the caveats name the fields of the records they concern (the API's and
 * the data dictionary's names) and program values; here each is said in words.
 */
export function caveatForReaders(caveat: string): string {
  return caveat
    .replace(/\b([a-z]+(?:_[a-z]+)*) = true\b/g, (_, field: string) => `marked ${fieldName(field).toLowerCase()}`)
    .replace(/\b(is|are) (always )?null\b/g, (_, verb: string, always: string | undefined) => `${verb} ${always ?? ''}left empty`)
    .replace(/\bnull\b/g, 'empty')
    .replace(/\b(\w+)\[(\w+)\]/g, '$1')
    .replace(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, (name) => fieldName(name).toLowerCase())
    .replace(/\b[a-z]+[A-Z][A-Za-z]*\b|\b[A-Z][a-z]+Record\b/g, (name) => sentenceCase(name).toLowerCase());
}
