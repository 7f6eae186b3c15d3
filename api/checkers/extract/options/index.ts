import type { z } from '@hono/zod-openapi';
import { chunks, chunksOutput, chunksSettings } from './chunks.ts';
import { classify, classifyOutput, classifySettings } from './classify.ts';
import { figures, figuresOutput, figuresSettings } from './figures.ts';
import { flagBelow, flagBelowOutput, flagBelowSettings } from './flag-below.ts';
import { grounding, groundingOutput, groundingSettings } from './grounding.ts';
import { layout, layoutOutput, layoutSettings } from './layout.ts';
import { links, linksOutput, linksSettings } from './links.ts';
import { redact, redactOutput, redactSettings } from './redact.ts';
import { split, splitOutput, splitSettings } from './split.ts';
import { tables, tablesOutput, tablesSettings } from './tables.ts';
import { settingsProblem } from './settings.ts';
import type { OptionInput, OptionName } from './types.ts';

export { extractOptionNames, type ExtractedField, type OptionInput, type OptionName } from './types.ts';

/**
 * Each option's work: the result's extra key under the option's name holds what it returns (spec,
 * Extraction result: "one extra key per enabled option"). Pure: same input, same output.
 */
export const extractOptionRunners: Record<OptionName, (input: OptionInput) => Promise<unknown>> = {
  tables,
  grounding,
  classify,
  redact,
  layout,
  links,
  figures,
  chunks,
  split,
  flag_below: flagBelow,
};

/**
 * Each option's settings as a JSON body gives them (`true` for the defaults, or an object; `flag_below`
 * also takes a bare threshold). A runner parses its settings with the same schema.
 */
export const extractOptionSettings = {
  tables: tablesSettings,
  grounding: groundingSettings,
  classify: classifySettings,
  redact: redactSettings,
  layout: layoutSettings,
  links: linksSettings,
  figures: figuresSettings,
  chunks: chunksSettings,
  split: splitSettings,
  flag_below: flagBelowSettings,
} satisfies Record<OptionName, z.ZodType>;

/** Each option's key in the extraction result, for the reply's OpenAPI schema. */
export const extractOptionOutputs = {
  tables: tablesOutput,
  grounding: groundingOutput,
  classify: classifyOutput,
  redact: redactOutput,
  layout: layoutOutput,
  links: linksOutput,
  figures: figuresOutput,
  chunks: chunksOutput,
  split: splitOutput,
  flag_below: flagBelowOutput,
} satisfies Record<OptionName, z.ZodType>;

/**
 * The first enabled option whose settings its schema refuses, as a sentence for the request's error
 * reply, or null when all are good. `options` maps option names to what the request gave (`true`, a
 * number, or settings); `false` and absent options are off.
 */
export function invalidOptionSettings(options: Partial<Record<OptionName, unknown>>): string | null {
  for (const [name, value] of Object.entries(options) as [OptionName, unknown][]) {
    if (value === undefined || value === false) continue;
    const problem = settingsProblem(extractOptionSettings[name], value);
    if (problem) return `Invalid settings for extract option ${name}: ${problem}. See GET /v1/extract/capabilities for what each option accepts.`;
  }
  return null;
}
