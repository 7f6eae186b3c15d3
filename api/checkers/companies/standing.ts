import type { AsicEntry } from './registers.ts';

/**
 * What ASIC's status codes mean, from the help file of ASIC's company dataset on data.gov.au as public
 * importers of the dataset quote it (checkers-research §9.4, [read] in their code; the help file itself was
 * not captured here). The first ten are the dataset's company codes; the rest appear in a broader ASIC code
 * list another importer carries. A code missing here is passed through as the register gives it.
 */
export const ASIC_STATUS_MEANINGS: Readonly<Record<string, string>> = {
  REGD: 'Registered',
  DRGD: 'De-registered',
  EXAD: 'External administration (in receivership/liquidation)',
  NOAC: 'Not active',
  NRGD: 'Not registered',
  PROV: 'Provisional (only under charges; not fully registered)',
  SOFF: 'Strike-off action in progress',
  DISS: 'Dissolved by Special Act of Parliament',
  DIV3: 'Organisation transferred registration via DIV3',
  PEND: 'Pending – Schemes',
  ASOS: 'Association strike-off status',
  CNCL: 'Cancelled',
  CONV: 'Converted (Trust)',
  DMNT: 'Dormant',
  EXAA: 'External administration – Associations',
  REXP: 'Business name expired',
  RMVD: 'Business names – removed',
  ARCH: 'Business names – archived',
  WDUP: 'Winding up – managed investment schemes',
  WDPI: 'Winding up – prescribed interest schemes',
  RSVD: 'Reserved name',
  APPD: 'Approved name reservation',
};

export const UNKNOWN_STATUS_MEANING = "Not a code in ASIC's published list; shown as the register gives it.";

export const WEEKLY_LAG =
  'ASIC republishes its company dataset weekly, so this standing may lag the live register (ASIC Connect) by up to a week.';

/** The `asic` block of a company (spec, Company resolution result: selected.asic). */
export interface AsicStanding {
  acn: string;
  status: string;
  status_meaning: string;
  in_good_standing: boolean;
  registered: string | null;
  deregistered: string | null;
  former_names: string[];
  as_of: string;
  age_days: number;
  caveat: string;
}

const DAY_MS = 86_400_000;

/**
 * A company's standing as the dataset held in the release shows it on `now`: only `REGD` (registered) is good
 * standing; strike-off in progress and external administration are not, and their meaning says why.
 */
export function asicStanding(entry: AsicEntry, now: Date): AsicStanding {
  const asOf = `${entry.as_of}T00:00:00.000Z`;
  const ageDays = Math.max(0, Math.floor((now.getTime() - Date.parse(asOf)) / DAY_MS));
  const caveats = [WEEKLY_LAG];
  if (ageDays > 7) caveats.push(`This copy is ${ageDays} days old.`);
  if (entry.stale) caveats.push("Last night's download of the dataset failed, so this is the copy of an earlier night.");
  return {
    acn: entry.acn,
    status: entry.status,
    status_meaning: ASIC_STATUS_MEANINGS[entry.status] ?? UNKNOWN_STATUS_MEANING,
    in_good_standing: entry.status === 'REGD',
    registered: entry.registered_date,
    deregistered: entry.deregistered_date,
    former_names: entry.former_names,
    as_of: asOf,
    age_days: ageDays,
    caveat: caveats.join(' '),
  };
}
