/**
 * The CKAN family: open-data portals running CKAN that publish a register as one CSV resource per
 * financial year. The resources are found from the dataset's own pages rather than the action API
 * (`/api/3/action/package_show`): CKAN's stock robots.txt, and data.qld.gov.au's, disallow `/api/` to
 * every crawler but Google's, while the dataset page, the resource pages and the downloads stay open.
 */
import { parse } from 'csv-parse/sync';
import type { CheerioAPI } from 'cheerio';
import type { CrawlRequest, Fetched, RouteHandler, SourceContext } from '../_contract/define-source.ts';
import { cleanText } from '../../lib/text.ts';

/** One resource listed on a dataset page. */
export interface CkanResource {
  name: string;
  /** Lower-case format label, as the page's `data-format` gives it (`csv`, `xlsx`, `pdf`). */
  format: string;
  /** The public address of the resource's own page on the portal. */
  pageUrl: string;
  /** The first year of the financial year the resource's name covers (2026 for "2026-27"); null when it names none. */
  financialYear: number | null;
}

/** A CSV row keyed by its (whitespace-normalised) header. */
export type CsvRow = Record<string, string>;

export interface CkanCsvOptions {
  /** How many of the newest financial years to read each night (the current year and the one before catch late entries). */
  newestYears: number;
  /** Receives the rows of one resource's CSV; the source maps them to records. */
  onRows(fetched: Fetched, rows: CsvRow[], resource: CkanResource): void;
}

const CKAN_LABELS = { dataset: 'DATASET', resource: 'RESOURCE', csv: 'CSV' } as const;

/** The start request: the dataset's page, `/dataset/<name>`. */
export function ckanDatasetRequest(ctx: SourceContext, datasetName: string): CrawlRequest {
  return { url: ctx.url(`/dataset/${encodeURIComponent(datasetName)}`), label: CKAN_LABELS.dataset };
}

/** The three handlers: dataset page → the newest years' resource pages → their CSV downloads. */
export function ckanCsvRoutes(options: CkanCsvOptions): Record<string, RouteHandler> {
  return {
    [CKAN_LABELS.dataset]: async (fetched) => {
      const pageUrl = fetched.ctx.publicUrl(fetched.request.url);
      const resources = readDatasetResources(await fetched.dom(), pageUrl);
      if (resources.length === 0) throw new Error('the dataset page lists no resources (no li.resource-item): not a CKAN dataset page');
      const chosen = newestCsvResources(resources, options.newestYears);
      if (chosen.length === 0) throw new Error(`none of the dataset's ${resources.length} resources is a CSV named for a financial year`);
      await fetched.enqueue(chosen.map((resource) => ({ url: fetched.ctx.url(resource.pageUrl), label: CKAN_LABELS.resource, userData: { resource } })));
    },
    [CKAN_LABELS.resource]: async (fetched) => {
      const resource = resourceOf(fetched);
      const download = downloadUrl(await fetched.dom(), resource.pageUrl);
      if (!download) throw new Error(`resource page "${resource.name}" has no download link (a.resource-url-analytics)`);
      // why: robots.txt was read for the portal's host only, and a fixture run must never reach the network
      if (new URL(download).origin !== new URL(resource.pageUrl).origin) {
        fetched.warn(`resource "${resource.name}" is hosted off the portal at ${new URL(download).host}; not fetched`);
        return;
      }
      await fetched.enqueue({ url: fetched.ctx.url(download), label: CKAN_LABELS.csv, userData: { resource } });
    },
    [CKAN_LABELS.csv]: async (fetched) => {
      const resource = resourceOf(fetched);
      options.onRows(fetched, parseCsv(await fetched.text()), resource);
    },
  };
}

/** The resources a CKAN dataset page lists (`li.resource-item`, as core CKAN and data.qld's theme render them). */
export function readDatasetResources($: CheerioAPI, pageUrl: string): CkanResource[] {
  return $('li.resource-item')
    .toArray()
    .flatMap((item) => {
      const heading = $(item).find('a.heading').first();
      const href = heading.attr('href');
      if (!href) return [];
      const label = heading.clone();
      label.find('span').remove();
      const name = cleanText(heading.attr('title')) ?? cleanText(label.text()) ?? '';
      const format = cleanText(heading.find('.format-label').attr('data-format'))?.toLowerCase() ?? '';
      return [{ name, format, pageUrl: new URL(href, pageUrl).href, financialYear: financialYearOf(name) }];
    });
}

/** The CSV resources of the `count` newest financial years, newest first; one per year, the first listed. */
export function newestCsvResources(resources: CkanResource[], count: number): CkanResource[] {
  const byYear = new Map<number, CkanResource>();
  for (const resource of resources) {
    if (resource.format !== 'csv' || resource.financialYear === null || byYear.has(resource.financialYear)) continue;
    byYear.set(resource.financialYear, resource);
  }
  return [...byYear.entries()]
    .sort(([a], [b]) => b - a)
    .slice(0, count)
    .map(([, resource]) => resource);
}

/** "2026-27", "2026–2027", "FY2026/27" → 2026. Only a pair of consecutive years counts as a financial year. */
export function financialYearOf(name: string): number | null {
  const match = /(?<!\d)(20\d{2})\s*[-–/]\s*(20\d{2}|\d{2})(?!\d)/.exec(name);
  if (!match) return null;
  const first = Number(match[1]);
  const second = Number(match[2]!.length === 2 ? `${match[1]!.slice(0, 2)}${match[2]}` : match[2]);
  return second === first + 1 ? first : null;
}

/** The resource page's primary download button; its `href` is the resource URL, absolute for uploads. */
function downloadUrl($: CheerioAPI, pageUrl: string): string | null {
  const href = $('a.resource-url-analytics').first().attr('href');
  return href ? new URL(href, pageUrl).href : null;
}

/**
 * Parses a CSV export: a UTF-8 byte-order mark, quoted fields with commas, doubled quotes and line breaks,
 * and the all-empty rows spreadsheet exports leave at the end. Headers are whitespace-normalised. A row
 * with the wrong number of fields throws, so a damaged file fails its request rather than shifting columns.
 */
export function parseCsv(text: string): CsvRow[] {
  return parse(text, {
    bom: true,
    columns: (headers: string[]) => headers.map((header) => cleanText(header) ?? ''),
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
  }) as CsvRow[];
}

function resourceOf(fetched: Pick<Fetched, 'request'>): CkanResource {
  const resource = fetched.request.userData.resource as CkanResource | undefined;
  if (!resource) throw new Error(`request ${fetched.request.url} was not enqueued from a CKAN dataset page`);
  return resource;
}
