import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { resolveCompany } from '../api/checkers/companies/analyse.ts';
import { releaseRegisters, type CompanyRegisters } from '../api/checkers/companies/registers.ts';
import type { CompanyResolution } from '../api/checkers/companies/result.ts';
import { createAbnLookup } from '../api/providers/abn-lookup.ts';
import { createProviderTransport } from '../api/providers/http.ts';
import { recordMeasured } from './helpers/measured.ts';
import { REGISTER_RELEASE_NOW, registerRelease, type RegisterRelease } from './helpers/register-release.ts';

interface Labelled {
  query: string;
  kind: 'abn_valid' | 'acn_valid' | 'abn_typo' | 'acn_typo' | 'identifier_unknown' | 'name' | 'name_unknown';
  expect: CompanyResolution['status'];
  /** The entity the query means (for a typo, the one intended); null when the registers hold none. */
  abn: string | null;
  /** Written after the name rules last changed, and not used to change them. */
  held_out?: boolean;
}

const { queries } = JSON.parse(readFileSync(new URL('../fixtures/companies/labelled-queries.json', import.meta.url), 'utf8')) as { queries: Labelled[] };
const unconfigured = createAbnLookup({ guid: undefined, transport: createProviderTransport({ userAgent: 'test' }) });

// Floors a change to matching or parsing must keep (measured on this set: see the printed figures).
const PRECISION_FLOOR = 0.98;
const RECALL_FLOOR = 0.95;

let release: RegisterRelease;
let registers: CompanyRegisters;
before(async () => {
  release = await registerRelease();
  registers = releaseRegisters(release);
});
after(() => release.store.close());

/**
 * The entity an answer points a person to: the selected company, else the first candidate (a name's best
 * match, a typo's held correction). Null when it points to none.
 */
function named(result: CompanyResolution): string | null {
  const entity = result.selected ?? result.candidates[0] ?? null;
  return entity ? (entity.identifiers.abn ?? `acn:${entity.identifiers.acn}`) : null;
}

test('labelled company queries over the fixture registers: precision and recall of resolution', async () => {
  assert.ok(queries.length >= 100, `${queries.length} labelled queries`);
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  let statusRight = 0;
  let inCandidates = 0;
  let withEntity = 0;
  const wrong: string[] = [];
  const byKind = new Map<string, { right: number; total: number }>();
  const heldOut = { right: 0, total: 0 };
  for (const labelled of queries) {
    const result = await resolveCompany({ query: labelled.query }, { registers, abnLookup: unconfigured, now: REGISTER_RELEASE_NOW });
    const pointed = named(result);
    const right = pointed === labelled.abn && result.status === labelled.expect;
    if (pointed !== null && pointed === labelled.abn) truePositives++;
    if (pointed !== null && pointed !== labelled.abn) falsePositives++;
    if (labelled.abn !== null && pointed !== labelled.abn) falseNegatives++;
    if (result.status === labelled.expect) statusRight++;
    if (labelled.abn !== null) {
      withEntity++;
      if ([result.selected, ...result.candidates].some((entity) => entity?.identifiers.abn === labelled.abn)) inCandidates++;
    }
    if (labelled.kind.endsWith('_typo')) {
      assert.equal(result.identifier?.check_digits, 'invalid', labelled.query);
      assert.ok(result.identifier?.nearest_valid.some((reading) => reading.replace(/\s/g, '') === (labelled.kind === 'abn_typo' ? labelled.abn : result.candidates[0]?.identifiers.acn)), `${labelled.query}: the intended number is among the readings`);
    }
    const tally = byKind.get(labelled.kind) ?? { right: 0, total: 0 };
    byKind.set(labelled.kind, { right: tally.right + (right ? 1 : 0), total: tally.total + 1 });
    if (labelled.held_out) [heldOut.right, heldOut.total] = [heldOut.right + (right ? 1 : 0), heldOut.total + 1];
    if (!right) wrong.push(`${labelled.query} (${labelled.kind}): expected ${labelled.expect} ${labelled.abn ?? 'none'}, got ${result.status} ${pointed ?? 'none'}`);
  }
  const precision = truePositives / (truePositives + falsePositives);
  const recall = truePositives / (truePositives + falseNegatives);
  console.log(
    `company resolution, ${queries.length} labelled queries: precision ${precision.toFixed(3)} (${truePositives}/${truePositives + falsePositives}), ` +
      `recall ${recall.toFixed(3)} (${truePositives}/${truePositives + falseNegatives}), status as labelled ${statusRight}/${queries.length}, ` +
      `intended entity among the answer's companies ${inCandidates}/${withEntity}`,
  );
  for (const [kind, { right, total }] of byKind) console.log(`  ${kind}: ${right}/${total}`);
  console.log(`  held out (names written after the rules last changed): ${heldOut.right}/${heldOut.total}`);
  for (const line of wrong) console.log(`  miss: ${line}`);
  assert.ok(precision >= PRECISION_FLOOR, `precision ${precision.toFixed(3)} under ${PRECISION_FLOOR}`);
  assert.ok(recall >= RECALL_FLOOR, `recall ${recall.toFixed(3)} under ${RECALL_FLOOR}`);
  recordMeasured('companies-labelled', {
    corpus: `fixtures/companies/labelled-queries.json (${queries.length} queries over the fixture release's ABN and ASIC registers)`,
    truth: 'Each query labelled by hand with the entity it means (for a typo, the one intended) and the status it should get; the held-out ones were written after the name rules last changed.',
    figures: { queries: queries.length, precision, recall, status_as_labelled: statusRight, held_out: heldOut.total, held_out_right: heldOut.right },
    floors: { precision: PRECISION_FLOOR, recall: RECALL_FLOOR },
  });
});
