/**
 * The Socrata family: open-data portals serving a dataset through the SODA API as a JSON array of flat
 * rows (`/resource/<id>.json`), paged with `$limit`/`$offset` under a stable `$order`. Socrata writes
 * every text, number and date as a string and leaves a null field out of the row altogether.
 */
import type { CrawlRequest, Fetched, RouteHandler, SourceContext } from '../_contract/define-source.ts';

/** One row: field name → value (a string for text, numbers and floating timestamps). */
export type SocrataRow = Record<string, unknown>;

export interface SocrataOptions {
  /** The dataset's four-by-four id, e.g. `pfs5-8d64`. */
  datasetId: string;
  /** Rows per request. A page shorter than this is the last. */
  pageSize: number;
  /** The `$order` clause; paging by offset is only stable under a total order. */
  order: string;
  /** Receives each page's rows; the source maps them to records. */
  onRows(fetched: Fetched, rows: SocrataRow[]): void;
}

export const SOCRATA_LABEL = 'PAGE';

/** The path of one page: `$order` is percent-encoded, the `$` parameter names are sent as Socrata documents them. */
export function socrataPagePath(options: Pick<SocrataOptions, 'datasetId' | 'pageSize' | 'order'>, offset: number): string {
  return `/resource/${options.datasetId}.json?$limit=${options.pageSize}&$offset=${offset}&$order=${encodeURIComponent(options.order)}`;
}

export function socrataStart(ctx: SourceContext, options: SocrataOptions): CrawlRequest[] {
  return [pageRequest(ctx, options, 0)];
}

/** The handler for one page: hands its rows to the source and asks for the next page while pages come back full. */
export function socrataPageRoute(options: SocrataOptions): RouteHandler {
  return async (fetched) => {
    const body = await fetched.json();
    if (!Array.isArray(body)) throw new Error(`not a Socrata row array: ${socrataError(body)}`);
    const rows = body.filter((row): row is SocrataRow => typeof row === 'object' && row !== null && !Array.isArray(row));
    if (rows.length < body.length) fetched.invalid(`${body.length - rows.length} row(s) on this page are not JSON objects`);
    options.onRows(fetched, rows);
    if (body.length >= options.pageSize) {
      const offset = Number(fetched.request.userData.offset ?? 0) + body.length;
      await fetched.enqueue(pageRequest(fetched.ctx, options, offset));
    }
  };
}

function pageRequest(ctx: SourceContext, options: SocrataOptions, offset: number): CrawlRequest {
  return { url: ctx.url(socrataPagePath(options, offset)), label: SOCRATA_LABEL, userData: { offset } };
}

/** Socrata answers a bad query with `{"error": true, "message": …}` (or `code`/`message`). */
function socrataError(body: unknown): string {
  if (typeof body === 'object' && body !== null) {
    const { message, code } = body as { message?: unknown; code?: unknown };
    if (typeof message === 'string') return typeof code === 'string' ? `${code}: ${message}` : message;
  }
  return JSON.stringify(body).slice(0, 200);
}
