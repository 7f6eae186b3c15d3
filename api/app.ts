import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import packageJson from '../package.json' with { type: 'json' };
import { errorReplies } from './middleware/errors.ts';
import type { ReleaseStore } from './release-store.ts';
import { healthRoutes } from './routes/health.ts';
import { tenderRoutes } from './routes/tenders.ts';

export interface AppOptions {
  store: Pick<ReleaseStore, 'state' | 'now'>;
  /** Where unexpected exceptions are reported. */
  log?: (error: unknown, c: Context) => void;
}

/** The OpenAPI version of the interface (spec, Versioning), distinct from the package's engine version. */
export const API_VERSION = '0.6.0';

/** The whole API as one Hono app; `/openapi.json` is generated from the routes' zod schemas. */
export function createApp(options: AppOptions): OpenAPIHono {
  const errors = errorReplies(options.log ? { log: options.log } : {});
  const app = new OpenAPIHono({ defaultHook: errors.validationHook });
  app.notFound(errors.notFound);
  app.onError(errors.onError);

  app.route('/', healthRoutes({ store: options.store }));
  app.route('/', tenderRoutes({ store: options.store }));

  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Tender intelligence API',
      version: API_VERSION,
      description: packageJson.description,
    },
  });
  return app;
}
