/**
 * Registers published on data.gov.au (CKAN, mounted under `/data/`) as whole files replaced on a schedule:
 * the ASIC company dataset and the ABN bulk extract. A night reads the dataset page, picks the resources the
 * source wants, reads each resource's page for its download link (as the CKAN family does: stock CKAN's
 * robots.txt disallows the action API, and the pages carry the same links), then downloads the file to disk
 * with `fetched.download()` (conditionally: a 304 means the register is unchanged) and hands the source its path.
 */
import type { CrawlRequest, Fetched, RouteHandler, SourceContext } from '../_contract/define-source.ts';
import { readDatasetResources, type CkanResource } from './ckan.ts';
import { localDate, timeZoneOf } from '../../lib/jurisdictions.ts';

export const DATA_GOV_AU = 'https://data.gov.au';

const LABELS = { dataset: 'DATASET', resource: 'RESOURCE' } as const;

/** A downloaded register file, ready to read. */
export interface RegisterFile {
  /** The temporary file (deleted when the crawl ends). */
  path: string;
  resource: CkanResource;
  /** The file's public download URL. */
  downloadUrl: string;
  /** The server's Last-Modified for the file; null when it sent none. */
  lastModified: Date | null;
}

export interface RegisterOptions {
  /** The resources to download, from those the dataset page lists; none chosen fails the night. */
  choose(resources: CkanResource[]): CkanResource[];
  /** Reads one downloaded file and emits its records. */
  onFile(fetched: Fetched, file: RegisterFile): Promise<void>;
}

/** The start request: the dataset's page, by its permanent id. */
export function datasetRequest(ctx: SourceContext, datasetId: string): CrawlRequest {
  return { url: ctx.url(`/data/dataset/${datasetId}`), label: LABELS.dataset };
}

/** The two handlers: dataset page → each chosen resource's page → its file, downloaded and read. */
export function registerRoutes(options: RegisterOptions): Record<string, RouteHandler> {
  return {
    [LABELS.dataset]: async (fetched) => {
      const resources = readDatasetResources(await fetched.dom(), fetched.ctx.publicUrl(fetched.request.url));
      if (resources.length === 0) throw new Error('the dataset page lists no resources (no li.resource-item): not a CKAN dataset page');
      const chosen = options.choose(resources);
      if (chosen.length === 0) throw new Error(`none of the dataset's resources is the register file (${resources.map((r) => `"${r.name}" ${r.format}`).join(', ')})`);
      await fetched.enqueue(chosen.map((resource) => ({ url: fetched.ctx.url(resource.pageUrl), label: LABELS.resource, userData: { resource } })));
    },
    [LABELS.resource]: async (fetched) => {
      const resource = fetched.request.userData.resource as CkanResource | undefined;
      if (!resource) throw new Error(`request ${fetched.request.url} was not enqueued from the dataset page`);
      const href = (await fetched.dom())('a.resource-url-analytics').first().attr('href');
      if (!href) throw new Error(`resource page "${resource.name}" has no download link (a.resource-url-analytics)`);
      const downloadUrl = new URL(href, resource.pageUrl).href;
      // why: robots.txt was read for data.gov.au only, and a fixture run must never reach the network
      if (new URL(downloadUrl).origin !== DATA_GOV_AU) throw new Error(`resource "${resource.name}" is hosted off data.gov.au at ${new URL(downloadUrl).host}`);
      const download = await fetched.download(fetched.ctx.url(downloadUrl));
      if (download.status === 'not_modified') return;
      await options.onFile(fetched, { path: download.path, resource, downloadUrl, lastModified: download.lastModified });
    },
  };
}

/**
 * The date a register file is true for: its Last-Modified as a Canberra calendar date (the registers are
 * published from Canberra), else the run's own date, with a warning.
 */
export function fileDate(fetched: Fetched, file: RegisterFile): string {
  const canberra = timeZoneOf('AU-ACT');
  if (file.lastModified) return localDate(file.lastModified, canberra);
  fetched.warn(`${file.downloadUrl} came without a Last-Modified date; its rows are dated with the run's date`);
  return localDate(fetched.ctx.now, canberra);
}

/**
 * Counts a kind of problem across millions of rows and reports each kind once, with its first example,
 * instead of a warning per row.
 */
export class ProblemTally {
  private readonly tally = new Map<string, { count: number; example: string }>();

  add(kind: string, example: string): void {
    const entry = this.tally.get(kind);
    if (entry) entry.count++;
    else this.tally.set(kind, { count: 1, example });
  }

  report(fetched: Fetched, where: string): void {
    for (const [kind, { count, example }] of this.tally) fetched.warn(`${where}: ${count} ${kind}, e.g. ${example}`);
  }
}
