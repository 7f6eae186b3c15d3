import type { z } from '@hono/zod-openapi';

/**
 * An option's settings as a request gives them: `true` (or a flag such as `tables=true` in a query) means
 * the defaults, an object is checked against the option's schema. Throws the zod error for bad settings.
 */
export function parseSettings<Schema extends z.ZodType>(schema: Schema, raw: unknown): z.output<Schema> {
  return schema.parse(raw === true || raw === undefined || raw === null ? {} : raw);
}
