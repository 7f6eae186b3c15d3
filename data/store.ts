import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One DuckDB file and one connection. Extension auto-install is off: the machines cannot download. */
export interface Store {
  connection: DuckDBConnection;
  /** Runs one or more statements. */
  exec(sql: string): Promise<void>;
  /** Rows as JSON-safe objects (dates and timestamps as ISO strings, decimals and big integers as strings). */
  all<T = Record<string, Json>>(sql: string, params?: DuckDBValue[]): Promise<T[]>;
  close(): void;
}

export interface StoreOptions {
  readOnly?: boolean;
  threads?: number;
  /**
   * DuckDB's `memory_limit` (e.g. `128MB`): the most its buffer pool keeps of the file's blocks and query
   * state. With it, freed allocator memory goes back to the system past 16 MB rather than DuckDB's default
   * 128 MB, so a long-running reader's memory settles after a burst of queries.
   */
  memoryLimit?: string;
}

export async function openStore(path: string, options: StoreOptions = {}): Promise<Store> {
  const settings: Record<string, string> = { autoinstall_known_extensions: 'false' };
  if (options.readOnly) settings.access_mode = 'READ_ONLY';
  if (options.threads) settings.threads = String(options.threads);
  if (options.memoryLimit) {
    settings.memory_limit = options.memoryLimit;
    settings.allocator_flush_threshold = '16MB';
  }
  const instance = await DuckDBInstance.create(path, settings);
  const connection = await instance.connect();
  // Timestamps render in the session zone: pin it so output never depends on the machine's zone.
  await connection.run("SET TimeZone = 'UTC'");
  return {
    connection,
    async exec(sql) {
      await connection.run(sql);
    },
    async all<T>(sql: string, params?: DuckDBValue[]) {
      const reader = await connection.runAndReadAll(sql, params);
      return reader.getRowObjectsJson() as T[];
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/** Quotes a string as a SQL literal. Used for paths and run constants the pipeline itself produced. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
