import { z } from 'zod';

/**
 * A contract award's shape: on the wire (`Award`), as the store's rows hold it (`AwardRow`) and the columns
 * that read it. A module of its own below both the award index (data/search/) and the award replies
 * (awards.ts), which import it; neither imports the other through it.
 */

const identifiedOnly = 'Only for a caller with an API key or a signed-in session.';

/** The fields an anonymous caller is not shown (spec, Contract award; Authentication 7). */
export const AWARD_IDENTIFIED_FIELDS = ['url', 'supplier', 'supplier_id', 'supplier_key'] as const;

/** One contract on the wire (spec, Contract award). A value the release does not hold is absent, never null. */
export const Award = z
  .object({
    contract_id: z.string().meta({ description: 'Contract notice id; an amendment chain is one contract, at its latest value.' }),
    buyer: z.string().meta({ description: 'Buying organisation as published.' }),
    buyer_key: z.string().optional().meta({ description: 'The buyer\'s key, e.g. `au-nsw-6ef7e680ac1d`.' }),
    jurisdiction: z.string(),
    title: z.string(),
    value_amount: z.number().optional().meta({ description: 'Value as published, never converted.' }),
    value_currency: z.string().optional().meta({ description: 'ISO 4217 currency as published.' }),
    awarded_date: z.iso.date().optional(),
    start_date: z.iso.date().optional(),
    end_date: z.iso.date().optional(),
    categories: z.array(z.string()).meta({ description: 'UNSPSC codes.' }),
    trade: z.string().optional().meta({ description: 'Trade id (lib/trades.ts).' }),
    source: z.string().meta({ description: 'Registry id of the source.' }),
    url: z.string().optional().meta({ description: `The source notice. ${identifiedOnly}` }),
    supplier: z.string().optional().meta({ description: `Supplier as published. ${identifiedOnly}` }),
    supplier_id: z.string().optional().meta({ description: `The source's id for the supplier. ${identifiedOnly}` }),
    supplier_key: z.string().optional().meta({ description: `\`AU-ABN:<abn>\`, or \`<scheme>:<id>\`. ${identifiedOnly}` }),
  })
  .meta({ id: 'Award' });
export type Award = z.infer<typeof Award>;

export const AWARD_SELECT = `contract_id, buyer, buyer_key, jurisdiction, title, value_amount::DOUBLE AS value_amount, value_currency,
  strftime(awarded_date, '%Y-%m-%d') AS awarded_date, strftime(start_date, '%Y-%m-%d') AS start_date, strftime(end_date, '%Y-%m-%d') AS end_date,
  categories, trade, source, url, supplier, supplier_id, supplier_key`;

export type AwardRow = { [K in keyof Award]-?: Award[K] | null };
