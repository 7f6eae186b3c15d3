import type { Readable } from 'node:stream';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { defineSource, type Fetched } from './_contract/define-source.ts';
import type { AbnRecord } from './_contract/records.ts';
import { DATA_GOV_AU, ProblemTally, datasetRequest, fileDate, registerRoutes, type RegisterFile } from './_platforms/data_gov_au.ts';
import { cleanText } from '../lib/text.ts';

const DATASET_ID = '5bd7fcab-e315-42cb-8daf-50b7efc2027e';
/** The register's entity type for an individual (sole trader): its name and postcode are personal information. */
const INDIVIDUAL = 'IND';
/** The date the register gives a GST status that never started ("NON" since 1 January 1900). */
const NEVER = '19000101';

export default defineSource({
  id: 'au_abn_bulk_extract',
  tag: 'ABN',
  name: 'ABN bulk extract (Australian Business Register)',
  jurisdiction: 'AU',
  tier: 'federal',
  kinds: ['abn'],
  mode: 'xml',
  refresh: 'snapshot',
  origin: DATA_GOV_AU,
  homepage: `${DATA_GOV_AU}/data/dataset/abn-bulk-extract`,
  licence: 'Creative Commons Attribution 3.0 Australia (CC BY 3.0 AU), as data.gov.au publishes the ABN bulk extract.',
  attribution: 'ABN bulk extract © Australian Business Register (Australian Taxation Office), published on data.gov.au under CC BY 3.0 AU.',
  caveats: [
    'The extract holds the public ABN records (about 20 million, active and cancelled) and is refreshed weekly: a record can be a week behind ABN Lookup.',
    'Individuals\' (sole traders\') given and family names and postcodes are not kept: their rows keep the ABN, status, entity type, state and the business names they trade under.',
    'Partnership and trust names are kept as the register publishes them, and often contain people\'s names.',
    'Only what an entity chose to make public is in the extract; suppressed records and fields are missing.',
    'The two ZIPs (about 1 GB, 12.5 GB of XML) are downloaded only when their ETag or Last-Modified changed since the last good run; when one changed, both are read, since the register is replaced whole.',
  ],
  politeness: {
    maxConcurrency: 1, // why: the two ZIPs are read one after the other; two 500 MB transfers at once would only compete
    delayMs: 1000, // why: five requests a week to a government portal; a second apart costs nothing (a robots.txt Crawl-delay overrides it)
    maxRetries: 3, // why: downloads are served from object storage behind the portal, where a transient 5xx passes on retry
    timeoutSecs: 120, // why: the longest wait for the next bytes of a 500 MB ZIP; a stalled transfer is retried rather than awaited
    handlerTimeoutSecs: 7200, // why: one ZIP is ten XML files and ten million records to stream; two hours means something is wrong
  },
  start: (ctx) => [datasetRequest(ctx, DATASET_ID)],
  routes: registerRoutes({
    // the extract is split across ZIPs ("public_split_1_10", "public_split_11_20"); every ZIP listed is read
    choose: (resources) => resources.filter((r) => r.format === 'zip'),
    onFile: readExtract,
  }),
});

async function readExtract(fetched: Fetched, file: RegisterFile): Promise<void> {
  const problems = new ProblemTally();
  let entities = 0;
  await forEachXmlEntry(file.path, async (stream) => {
    entities += await readAbrXml(stream, {
      fallbackAsOf: () => fileDate(fetched, file),
      emit: (record) => fetched.emit(record),
      problems,
    });
  });
  if (entities === 0) throw new Error(`${file.downloadUrl} holds no ABR records`);
  problems.report(fetched, file.downloadUrl);
}

/** Streams each `.xml` entry of a ZIP on disk, one after the other, never inflating a whole entry into memory. */
export async function forEachXmlEntry(path: string, read: (stream: Readable, name: string) => Promise<void>): Promise<void> {
  const zip = await new Promise<ZipFile>((resolve, reject) => yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, opened) => (error ? reject(error) : resolve(opened))));
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: Entry) => {
        if (!/\.xml$/i.test(entry.fileName)) {
          zip.readEntry();
          return;
        }
        zip.openReadStream(entry, (error, stream) => {
          if (error) {
            reject(error);
            return;
          }
          read(stream, entry.fileName).then(() => zip.readEntry(), reject);
        });
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

/** The fields of one `<ABR>` element as the parser meets them. */
interface AbrFields {
  recordUpdated: string | null;
  abn: string | null;
  abnStatus: string | null;
  abnStatusFrom: string | null;
  entityTypeCode: string | null;
  entityType: string | null;
  mainName: string | null;
  state: string | null;
  postcode: string | null;
  asicNumber: string | null;
  gstStatus: string | null;
  gstStatusFrom: string | null;
  trading: string[];
  business: string[];
  other: string[];
}

export interface AbrReadOptions {
  /** The extract's date when the file carries no `TransferInfo/ExtractTime`. */
  fallbackAsOf(): string;
  emit(record: AbnRecord): void;
  problems: ProblemTally;
}

/**
 * Reads one extract XML file as a stream of SAX events, building one record per `<ABR>` element and
 * forgetting it once emitted, so memory stays flat whatever the file's size. Returns the records read.
 */
export async function readAbrXml(stream: Readable, options: AbrReadOptions): Promise<number> {
  const parser = new SaxesParser();
  const stack: SaxesTagPlain[] = [];
  let text = '';
  let current: AbrFields | null = null;
  let asOf: string | null = null;
  let count = 0;
  const within = (depth: number) => stack[stack.length - depth];

  parser.on('opentag', (tag) => {
    stack.push(tag);
    text = '';
    if (tag.name === 'ABR') current = emptyFields(isoDate(tag.attributes.recordLastUpdatedDate));
    if (!current) return;
    if (tag.name === 'ABN') {
      current.abnStatus = cleanText(tag.attributes.status);
      current.abnStatusFrom = isoDate(tag.attributes.ABNStatusFromDate);
    }
    if (tag.name === 'GST') {
      current.gstStatus = cleanText(tag.attributes.status);
      current.gstStatusFrom = tag.attributes.GSTStatusFromDate === NEVER ? null : isoDate(tag.attributes.GSTStatusFromDate);
    }
  });
  parser.on('text', (chunk) => {
    text += chunk;
  });
  parser.on('closetag', (tag) => {
    const value = cleanText(text);
    text = '';
    if (tag.name === 'ExtractTime') asOf = /^\d{4}-\d{2}-\d{2}/.exec(value ?? '')?.[0] ?? null;
    if (current) {
      switch (tag.name) {
        case 'ABN':
          current.abn = value;
          break;
        case 'EntityTypeInd':
          current.entityTypeCode = value;
          break;
        case 'EntityTypeText':
          current.entityType = value;
          break;
        case 'NonIndividualNameText': {
          const type = within(2)?.attributes.type;
          const section = within(3)?.name;
          if (value && section === 'MainEntity' && type === 'MN') current.mainName = value;
          if (value && section === 'OtherEntity') {
            const list = type === 'TRD' ? current.trading : type === 'BN' ? current.business : type === 'OTN' ? current.other : null;
            if (list && !list.includes(value)) list.push(value);
          }
          break;
        }
        case 'State':
          if (within(3)?.name === 'BusinessAddress') current.state = value;
          break;
        case 'Postcode':
          if (within(3)?.name === 'BusinessAddress') current.postcode = value;
          break;
        case 'ASICNumber':
          current.asicNumber = value;
          break;
        case 'ABR':
          count++;
          options.emit(abnRecord(current, asOf ?? options.fallbackAsOf(), options.problems));
          current = null;
          break;
      }
    }
    stack.pop();
  });

  stream.setEncoding('utf8');
  for await (const chunk of stream) parser.write(chunk as string);
  parser.close();
  return count;
}

function emptyFields(recordUpdated: string | null): AbrFields {
  return {
    recordUpdated, abn: null, abnStatus: null, abnStatusFrom: null, entityTypeCode: null, entityType: null, mainName: null,
    state: null, postcode: null, asicNumber: null, gstStatus: null, gstStatusFrom: null, trading: [], business: [], other: [],
  };
}

/**
 * One entity as a record. An individual's given and family names are never read into a field, and its
 * postcode is dropped here (see AbnRecord for why).
 */
export function abnRecord(fields: AbrFields, asOf: string, problems: ProblemTally): AbnRecord {
  const abn = fields.abn?.replace(/\s+/g, '') ?? '';
  const individual = fields.entityTypeCode === INDIVIDUAL;
  let asicNumber = fields.asicNumber;
  if (asicNumber && !/^\d{9}$/.test(asicNumber)) {
    problems.add('ASIC numbers that are not 9 digits (kept as null)', `ABN ${abn} "${asicNumber}"`);
    asicNumber = null;
  }
  return {
    record_type: 'abn',
    abn,
    abn_status: fields.abnStatus as AbnRecord['abn_status'],
    abn_status_from: fields.abnStatusFrom,
    entity_type_code: fields.entityTypeCode ?? '',
    entity_type: fields.entityType,
    individual,
    name: individual ? null : fields.mainName,
    state: fields.state,
    postcode: individual ? null : fields.postcode,
    asic_number: asicNumber,
    gst_status: fields.gstStatus,
    gst_status_from: fields.gstStatusFrom,
    trading_names: fields.trading,
    business_names: fields.business,
    other_names: fields.other,
    record_updated: fields.recordUpdated,
    as_of: asOf,
    url: `https://abr.business.gov.au/ABN/View?id=${abn}`,
  };
}

/** The register's YYYYMMDD dates as ISO dates; null when absent or not a real date. */
function isoDate(value: string | undefined): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(value ?? '');
  if (!match) return null;
  const iso = `${match[1]}-${match[2]}-${match[3]}`;
  const day = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(iso) ? iso : null;
}
