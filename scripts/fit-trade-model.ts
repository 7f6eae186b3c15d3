import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { fitTradeModel, type LabelledNotice, type TradeModel } from '../lib/trade-model.ts';
import { TRADES, tradeFeatures } from '../lib/trades.ts';

/**
 * Fits the trade classifier on the hand-labelled real titles (fixtures/corpora/trade-titles: practice entries
 * left out, they are never tenders), the written titles of fixtures/trades and the taxonomy's UNSPSC prefixes,
 * and writes lib/trade-model.json.
 * `npm run fit:trades`; the corpus test checks the shipped file is what this writes.
 */
const REAL_TITLES = new URL('../fixtures/corpora/trade-titles/labels.json', import.meta.url);
const WRITTEN_TITLES = new URL('../fixtures/trades/labelled-titles.json', import.meta.url);
export const TRADE_MODEL_FILE = new URL('../lib/trade-model.json', import.meta.url);

const RealRows = z.object({ rows: z.array(z.object({ title: z.string(), summary: z.string().nullable(), unspsc: z.string().nullable(), buyer: z.string().nullable(), trade: z.string().nullable(), also: z.array(z.string()), practice: z.boolean(), unseen_by_rules: z.boolean().optional() })) });
const WrittenRows = z.object({ labelled: z.array(z.object({ title: z.string(), trade: z.string().nullable() })) });

/** `unseen_by_rules`: labelled after the last revision of the keyword lists and weights, so no rule was changed after reading its errors. */
export type RealNotice = LabelledNotice & { also: string[]; unseen_by_rules?: boolean };

export function realNotices(): RealNotice[] {
  return RealRows.parse(JSON.parse(readFileSync(REAL_TITLES, 'utf8'))).rows.filter((row) => !row.practice);
}

export function writtenNotices(): LabelledNotice[] {
  return WrittenRows.parse(JSON.parse(readFileSync(WRITTEN_TITLES, 'utf8'))).labelled;
}

/**
 * The taxonomy's UNSPSC prefixes as notices of their own, a code and no words (7611 → 76110000, cleaning): the
 * labelled titles carry a code in one row of sixteen, so without these a code seen with two titles counts for
 * almost nothing against the words.
 */
const codeNotices = (): LabelledNotice[] => TRADES.flatMap((trade) => trade.unspsc.map((prefix) => ({ title: '', unspsc: prefix.padEnd(8, '0'), trade: trade.id })));

export function fitOn(notices: LabelledNotice[], fittedOn: string): TradeModel {
  return fitTradeModel([...notices, ...codeNotices()].map((notice) => ({ features: tradeFeatures({ title: notice.title, summary: notice.summary ?? null, category: notice.unspsc ?? null, buyer: notice.buyer ?? null }), trade: notice.trade, also: notice.also })), fittedOn);
}

export function shippedModel(): TradeModel {
  const real = realNotices();
  const written = writtenNotices();
  return fitOn([...real, ...written], `${real.length} hand-labelled real AU/NZ, UK and Irish notice titles (fixtures/corpora/trade-titles), ${written.length} written titles (fixtures/trades) and the taxonomy's UNSPSC prefixes`);
}

export const modelText = (model: TradeModel) => `${JSON.stringify(model)}\n`;

if (import.meta.main) {
  writeFileSync(TRADE_MODEL_FILE, modelText(shippedModel()));
  process.stdout.write(`wrote ${TRADE_MODEL_FILE.pathname.split('/').slice(-2).join('/')}\n`);
}
