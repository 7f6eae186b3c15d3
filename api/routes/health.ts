import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { INSPECTION_VERSION } from '../checkers/warrants/version.ts';
import type { ReleaseStore } from '../release-store.ts';

export interface HealthRoutesOptions {
  store: Pick<ReleaseStore, 'state'>;
  /** Reported as `engine_version`: the forensic inspection engine's version, which stored warrants carry (spec, Versioning 3). */
  engineVersion?: string;
}

export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'starting']).openapi({
      description: '`ok` while a release is served; `starting` while none is loaded yet (data routes answer 503 meanwhile).',
    }),
    engine_version: z.string().openapi({ description: 'The forensic inspection engine: stored warrants carry the version that made them.' }),
    release_id: z.string().optional().openapi({ description: 'The release being served.' }),
    computed_at: z.iso.datetime({ offset: true }).optional().openapi({ description: 'When that release was computed.' }),
    detail: z.string().optional().openapi({ description: 'Why no release is served, while `starting`.' }),
  })
  .openapi('Health');

/**
 * GET /livez, /health and /healthz: the same reply, always 200 while the process answers, so a
 * liveness probe never restarts a server that is only waiting for its first release.
 */
export function healthRoutes(options: HealthRoutesOptions): OpenAPIHono {
  const engineVersion = options.engineVersion ?? INSPECTION_VERSION;
  const app = new OpenAPIHono();
  for (const path of ['/livez', '/health', '/healthz']) {
    const route = createRoute({
      method: 'get',
      path,
      tags: ['Health'],
      summary: 'Service health and the release being served',
      responses: { 200: { description: 'The process is up.', content: { 'application/json': { schema: HealthSchema } } } },
    });
    app.openapi(route, (c) => {
      const state = options.store.state();
      const body: z.infer<typeof HealthSchema> = state.ready
        ? { status: 'ok', engine_version: engineVersion, release_id: state.release.id, computed_at: state.release.computedAt }
        : { status: 'starting', engine_version: engineVersion, detail: state.detail };
      return c.json(body, 200);
    });
  }
  return app;
}
