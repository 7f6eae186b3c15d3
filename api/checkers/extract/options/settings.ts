import type { z } from '@hono/zod-openapi';

/**
 * An option's settings as a request gives them: `true` (or a flag such as `tables=true` in a query) means
 * the defaults, an object is checked against the option's schema. Throws the zod error for bad settings.
 */
export function parseSettings<Schema extends z.ZodType>(schema: Schema, raw: unknown): z.output<Schema> {
  return schema.parse(raw === true || raw === undefined || raw === null ? {} : raw);
}

/** The settings' first problem as a clause naming where it is (e.g. `max_tokens: Too big: expected number to be <=8192`). */
export function settingsProblem(schema: z.ZodType, raw: unknown): string | null {
  const result = schema.safeParse(raw === true || raw === undefined || raw === null ? {} : raw);
  if (result.success) return null;
  const issue = result.error.issues[0]!;
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}
