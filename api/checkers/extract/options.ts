import { z } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import { malformedInputParams } from '../../schemas/common.ts';
import { extractDocumentTypes } from './classify.ts';
import { extractOptionNames, extractOptionSettings, type OptionName } from './options/index.ts';
import { settingsProblem } from './options/settings.ts';

/** Pages read per document at most, whatever `max_pages` asks (spec, Extract parameter rules). */
export const maxPagesCeiling = 10;
export const renderScales = [1, 1.5, 2, 3, 4] as const;
export const fieldTypes = ['text', 'amount', 'date', 'boolean'] as const;
/** Enough for any form we template (a payslip has about 15 fields) with room for a caller's own list. */
const maxRequestedFields = 60;
/** Query parameters the extract route itself reads; they are not extraction parameters but are not unknown either. */
const routeQueryParameters = new Set(['stream', 'fresh', 'sandbox']);

export type FieldType = (typeof fieldTypes)[number];

/** A requested field as the analysis uses it: every request form normalised to one shape. */
export interface FieldRequest {
  name: string;
  type: FieldType;
  /** The caller's description or question: words in it also count as labels to look for. */
  hint: string | null;
}

const fieldName = z.string().trim().min(1).max(100);

const fieldRequest = z
  .union([
    fieldName.transform((name): FieldRequest => ({ name, type: 'text', hint: null })),
    z
      .object({
        name: fieldName,
        type: z.enum(fieldTypes).default('text').describe('`amount` gives a number, `date` an ISO date, `boolean` reads a checkbox or yes/no'),
        description: z.string().trim().max(500).optional(),
        question: z.string().trim().max(500).optional(),
      })
      .strict()
      .transform((field): FieldRequest => ({ name: field.name, type: field.type, hint: field.description ?? field.question ?? null })),
  ])
  .openapi('ExtractFieldRequest', { description: 'A field name, or `{name, type, description or question}`' });

/** `true` for the defaults, `false` for off, a number (flag_below's threshold) or an object of settings the option checks. */
const optionValue = z.union([z.boolean(), z.number(), z.record(z.string(), z.unknown())]);

const extractOptionsObject = z
  .record(z.string(), optionValue)
  .check((ctx) => {
    for (const [name, value] of Object.entries(ctx.value)) {
      if (!isOptionName(name)) {
        ctx.issues.push({ code: 'custom', message: unknownOptionSentence(name), input: ctx.value, path: [name], params: malformedInputParams });
        continue;
      }
      const problem = value === false ? null : settingsProblem(extractOptionSettings[name], value);
      if (problem) ctx.issues.push({ code: 'custom', message: `has settings its option refuses (${problem}); GET /v1/extract/capabilities shows what it accepts`, input: value, path: [name] });
    }
  })
  .transform((options) => {
    const enabled: Partial<Record<OptionName, unknown>> = {};
    for (const name of extractOptionNames) {
      const value = options[name];
      if (value !== undefined && value !== false) enabled[name] = value;
    }
    return enabled;
  })
  .openapi('ExtractOptionSwitches', {
    description: `All off by default: ${extractOptionNames.join(', ')}. \`true\` turns one on with its defaults; tables and chunks take an object of settings, flag_below a threshold.`,
  });

/** The extraction parameters of a JSON body (spec, POST /v1/extract); the route adds the document fields. */
export const extractRequestOptions = z.object({
  fields: z
    .array(fieldRequest)
    .max(maxRequestedFields)
    .refine((fields) => new Set(fields.map((field) => field.name.toLowerCase())).size === fields.length, { message: 'names a field twice; give each field once' })
    .optional(),
  template: z.enum(extractDocumentTypes).optional().describe('Apply the fields of this document type; with neither fields nor template the document is classified first'),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code such as AU, IN or US')
    .transform((code) => code.toUpperCase())
    .optional()
    .describe('Hint for reading dates and amounts: AU, NZ, IN and GB read 03/04 as 3 April, US as 4 March'),
  max_pages: z
    .number()
    .int()
    .min(1)
    .default(maxPagesCeiling)
    .transform((pages) => Math.min(pages, maxPagesCeiling))
    .describe(`Pages read per document, from the first; a value above ${maxPagesCeiling} reads ${maxPagesCeiling} (the result's page_limit says so)`),
  render_scale: z
    .literal(renderScales)
    .default(2)
    .describe('Pixels per point when a page without a text layer is drawn for OCR: 1, 1.5, 2, 3 or 4'),
  options: extractOptionsObject.default({}),
});

export type ExtractRequestOptions = z.input<typeof extractRequestOptions>;
/** What the extract analysis receives: the request checked, defaults filled in, fields normalised. */
export type ExtractOptions = z.output<typeof extractRequestOptions>;

/**
 * The flat query form of the same parameters (`?template=payslip&fields=ABN&fields=Total&tables=true`)
 * as the object `extractRequestOptions` checks. An option is `name=true|false|1|0`, a number
 * (`flag_below=0.7`), or settings as `name.setting=value` (`chunks.strategy=by_title`; a repeated
 * setting is a list). Throws a 400 HTTPException naming an unknown parameter or a bad value.
 */
export function optionsFromQuery(query: Record<string, string | string[]>): ExtractOptions {
  const request: Record<string, unknown> = {};
  const options: Record<string, unknown> = {};
  for (const [key, given] of Object.entries(query)) {
    const values = Array.isArray(given) ? given : [given];
    if (routeQueryParameters.has(key)) continue;
    if (key === 'fields') {
      request['fields'] = values;
      continue;
    }
    if (key === 'template' || key === 'country' || key === 'max_pages' || key === 'render_scale') {
      const value = single(key, values);
      request[key] = key === 'max_pages' || key === 'render_scale' ? queryNumber(value) : value;
      continue;
    }
    const [name, setting, ...deeper] = key.split('.');
    if (!isOptionName(name!) || deeper.length > 0) throw new HTTPException(400, { message: unknownParameterSentence(key) });
    if (setting === undefined) {
      options[name!] = switchValue(key, single(key, values));
      continue;
    }
    const settings = (options[name!] ??= {});
    if (typeof settings !== 'object' || settings === null) throw new HTTPException(400, { message: `The query gives option ${name} both as a switch and with settings (${key}); use one form.` });
    (settings as Record<string, unknown>)[setting] = values.length === 1 ? settingValue(values[0]!) : values.map(settingValue);
  }
  request['options'] = options;
  const result = extractRequestOptions.safeParse(request);
  if (result.success) return result.data;
  throw new HTTPException(400, { message: result.error.issues.map(querySentence).join(' ') });
}

function isOptionName(name: string): name is OptionName {
  return (extractOptionNames as readonly string[]).includes(name);
}

function unknownOptionSentence(name: string): string {
  return `${JSON.stringify(name)} is not an extract option; the options are ${extractOptionNames.join(', ')}`;
}

function unknownParameterSentence(key: string): string {
  return `Unknown query parameter ${key}: extract takes fields, template, country, max_pages, render_scale and the options ${extractOptionNames.join(', ')} (settings as option.setting=value).`;
}

function single(key: string, values: string[]): string {
  if (values.length !== 1) throw new HTTPException(400, { message: `The query parameter ${key} is given ${values.length} times; give it once.` });
  return values[0]!;
}

/** A number, or the text itself so that the schema names what was wrong with it. */
function queryNumber(value: string): number | string {
  return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
}

function switchValue(key: string, value: string): boolean | number {
  if (value === '' || value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  const number = queryNumber(value);
  if (typeof number === 'number') return number;
  throw new HTTPException(400, { message: `Invalid query parameter ${key}=${value}: give true or false, a number, or settings as ${key}.setting=value.` });
}

function settingValue(value: string): string | number | boolean {
  if (value === 'true' || value === 'false') return value === 'true';
  return queryNumber(value);
}

function querySentence(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String);
  const name = path[0] === 'options' ? path.slice(1).join('.') : path.join('.');
  return `Invalid query parameter ${name}: ${issue.message}.`;
}
