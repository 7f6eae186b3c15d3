import { readFileSync, readdirSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import ajvDraft04, { type ErrorObject } from 'ajv-draft-04';

// a CommonJS module whose class is also its `default` export, which is the one its types describe
const Ajv = ajvDraft04.default;

/** The official OCDS schemas and codelists kept in the repository (see its README for version and source). */
const SCHEMA_DIR = new URL('../../data/ocds-schema/1.1.5/', import.meta.url);

const readJson = (name: string) => JSON.parse(readFileSync(new URL(name, SCHEMA_DIR), 'utf8')) as { id: string };

/** Each codelist file (`method.csv`) with its codes, read from the official CSVs. */
function readCodelists(): Map<string, Set<string>> {
  const dir = new URL('codelists/', SCHEMA_DIR);
  const lists = new Map<string, Set<string>>();
  for (const file of readdirSync(dir)) {
    const rows = parse(readFileSync(new URL(file, dir), 'utf8'), { columns: true }) as { Code: string }[];
    lists.set(file, new Set(rows.map((row) => row.Code)));
  }
  return lists;
}

// RFC 3339 date-time, as the schema's `format: date-time` means it.
const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/i;

/**
 * RFC 3986 `URI` characters: a scheme, then only unreserved and reserved characters and percent-encoded octets.
 * `URL.canParse` alone takes a space in an opaque path (`urn:…`), which the official OCDS tools (the `rfc3987`
 * grammar behind the schema's `format: uri`) refuse. Hand-written: the formats package that carries the whole
 * grammar is not among the project's dependencies, and the character set is what the export can get wrong.
 */
const RFC3986_URI = /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#[\]]|%[0-9A-Fa-f]{2})*$/;

export interface OcdsValidation {
  valid: boolean;
  errors: string[];
}

/**
 * Validates a release package against the official OCDS 1.1 release-package schema (which references the release
 * schema by its URL), with the formats it names checked and every field bound to a codelist checked against the
 * codelist's CSV. For closed codelists that is what the schema's enums say; for open ones it is stricter than the
 * schema, which allows new codes: the export publishes only listed codes, so any other is a defect.
 */
export function ocdsPackageValidator(): (pack: unknown) => OcdsValidation {
  const codelists = readCodelists();
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addFormat('date-time', (value: string) => DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)));
  ajv.addFormat('uri', (value: string) => RFC3986_URI.test(value) && URL.canParse(value));
  const inCodelist: ((file: string, data: unknown) => boolean) & { errors?: Partial<ErrorObject>[] } = (file, data) => {
    const codes = codelists.get(file);
    if (!codes) throw new Error(`the schema names a codelist that is not kept: ${file}`);
    const values = (Array.isArray(data) ? data : [data]).filter((value) => value !== null);
    const unknown = values.filter((value) => typeof value !== 'string' || !codes.has(value));
    inCodelist.errors = unknown.length === 0 ? [] : [{ keyword: 'codelist', message: `${JSON.stringify(unknown)} not in ${file}`, params: { file } }];
    return unknown.length === 0;
  };
  ajv.addKeyword({ keyword: 'codelist', schemaType: 'string', errors: true, validate: inCodelist });
  const release = readJson('release-schema.json');
  ajv.addSchema(release, release.id);
  const validate = ajv.compile(readJson('release-package-schema.json'));
  return (pack) => {
    const valid = validate(pack);
    const errors = (validate.errors ?? []).map((error: ErrorObject) => `${error.instancePath || '/'} ${error.message ?? error.keyword}`);
    return { valid, errors };
  };
}
