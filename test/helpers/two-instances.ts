import { TEST_ENGINE } from './state.ts';

/**
 * The skip reason of a test that runs two API processes on one PostgreSQL: such a test is PostgreSQL-only, so the
 * SQLite pass of `npm test` skips it (naming why) and the PostgreSQL pass runs it, rather than running it twice.
 */
export const TWO_INSTANCES_SKIP: string | false =
  TEST_ENGINE === 'postgres' ? false : 'two API instances share one PostgreSQL: runs in the PostgreSQL pass (STATE_ENGINE=postgres)';
