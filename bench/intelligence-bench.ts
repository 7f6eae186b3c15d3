import { readFile } from 'node:fs/promises';
import { openStore } from '../data/store.ts';
import { TRADES } from '../lib/trades.ts';
import { jurisdictionSlug } from '../data/intelligence/places.ts';
import { JURISDICTIONS } from '../lib/jurisdictions.ts';

/** What the award mix draws its filters from: real buyer and supplier keys of the release. */
export interface AwardMixKeys {
  buyerKeys: string[];
  supplierKeys: string[];
}

export async function readAwardMixKeys(storePath: string): Promise<AwardMixKeys> {
  const store = await openStore(storePath, { readOnly: true });
  try {
    const buyers = await store.all<{ buyer_key: string }>('SELECT buyer_key FROM buyers ORDER BY award_count DESC, buyer_key LIMIT 200');
    const suppliers = await store.all<{ supplier_key: string }>(
      'SELECT supplier_key FROM awards WHERE supplier_key IS NOT NULL GROUP BY supplier_key ORDER BY count(*) DESC, supplier_key LIMIT 200',
    );
    return { buyerKeys: buyers.map((b) => b.buyer_key), supplierKeys: suppliers.map((s) => s.supplier_key) };
  } finally {
    store.close();
  }
}

/**
 * GET /v1/awards as callers use it, every request a query not asked before (distinct offsets and limits), so
 * the response cache never answers: no filter, a country, a state, a buyer key, a supplier key, words, a date,
 * and combinations, paged.
 */
export function awardPaths(keys: AwardMixKeys, count = 40_000): string[] {
  const words = ['road', 'cleaning', 'software', 'security', 'audit', 'water', 'fleet', 'training', 'design', 'network'];
  const states = JURISDICTIONS.filter((j) => j !== 'AU' && j !== 'NZ');
  const shapes: ((i: number) => string)[] = [
    () => '',
    () => 'jurisdiction=AU',
    (i) => `jurisdiction=${states[i % states.length]}`,
    () => 'jurisdiction=NZ',
    (i) => `buyer_key=${keys.buyerKeys[i % keys.buyerKeys.length]}`,
    (i) => `supplier_key=${encodeURIComponent(keys.supplierKeys[i % keys.supplierKeys.length]!)}`,
    (i) => `q=${words[i % words.length]}`,
    (i) => `q=${words[i % words.length]}&jurisdiction=${states[i % states.length]}`,
    (i) => `since=2025-${String(1 + (i % 12)).padStart(2, '0')}-01`,
    (i) => `buyer_key=${keys.buyerKeys[i % keys.buyerKeys.length]}&since=2024-01-01`,
  ];
  return Array.from({ length: count }, (_, i) => {
    const filter = shapes[i % shapes.length]!(Math.floor(i / shapes.length));
    const page = `limit=${i % 2 === 0 ? 20 : 100}&offset=${(Math.floor(i / shapes.length) % 300) * 20}`;
    return `/v1/awards?${filter ? `${filter}&` : ''}${page}`;
  });
}

/** GET /v1/intelligence/trades/{trade}/{state} for every trade and jurisdiction. */
export function tradeStatePaths(): string[] {
  return TRADES.flatMap((trade) => JURISDICTIONS.map((j) => `/v1/intelligence/trades/${trade.id}/${jurisdictionSlug(j)}`));
}

/** The resident set size of a process, in bytes (Linux). */
export async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}
