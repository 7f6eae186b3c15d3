import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startAbnLookupFake, type AbnLookupFake } from '../../../test/helpers/abn-lookup-fake.ts';
import { REGISTER_RELEASE_NOW, registerRelease, type RegisterRelease } from '../../../test/helpers/register-release.ts';
import { createAbnLookup, type AbnLookup } from '../../providers/abn-lookup.ts';
import { createProviderTransport } from '../../providers/http.ts';
import { resolveCompany, type ResolveContext } from './analyse.ts';
import { join } from 'node:path';
import { openStore } from '../../../data/store.ts';
import { tempDir } from '../../../test/helpers/temp-dir.ts';
import { normaliseName } from './names.ts';
import { releaseRegisters, type CompanyRegisters } from './registers.ts';
import { companyResolution } from './result.ts';

const unconfigured = createAbnLookup({ guid: undefined, transport: createProviderTransport({ userAgent: 'test' }) });

describe('company resolution over the fixture release', () => {
  let release: RegisterRelease;
  let registers: CompanyRegisters;
  before(async () => {
    release = await registerRelease();
    registers = releaseRegisters(release);
  });
  after(() => release.store.close());

  const resolve = async (query: string, options: { jurisdiction?: 'AU' | 'NZ'; abnLookup?: AbnLookup; registers?: ResolveContext['registers'] } = {}) => {
    const result = await resolveCompany(
      { query, jurisdiction: options.jurisdiction },
      { registers: options.registers ?? registers, abnLookup: options.abnLookup ?? unconfigured, now: REGISTER_RELEASE_NOW },
    );
    companyResolution.parse(result);
    return result;
  };
  const coverageOf = (result: Awaited<ReturnType<typeof resolve>>) => Object.fromEntries(result.coverage.map((entry) => [entry.source, entry.status]));

  it('the name index splits every register name into the words names.ts searches it by', async () => {
    const rows = await release.store.all<{ name: string; terms: string[] }>('SELECT name, list_sort(list_distinct(list(term))) AS terms FROM company_name_terms GROUP BY name');
    assert.ok(rows.length >= 30, `${rows.length} names`);
    for (const { name, terms } of rows) {
      const expected = [...new Set(normaliseName(name).core.filter((word) => word.length >= 3))].sort();
      assert.deepEqual(terms, expected, name);
    }
  });

  it('an ABN resolves directly to the entity in both registers, with its ASIC standing', async () => {
    const result = await resolve('ABN 53 004 085 616');
    assert.equal(result.status, 'resolved');
    assert.equal(result.parsed_as, 'abn');
    assert.match(result.resolved_because, /^ABN 53 004 085 616 resolves directly: the ABN bulk extract as of 2026-09-23 lists ABN 53 004 085 616; ASIC's company dataset as of 2026-09-22 lists ACN 004 085 616\.$/);
    assert.deepEqual(result.selected, {
      identifiers: { abn: '53004085616', acn: '004085616' },
      names: { legal: 'HARBOURSIDE CIVIL PTY LTD', business: ['HARBOURSIDE EARTHWORKS'], trading: ['HARBOURSIDE CIVIL'] },
      entity_type: 'Australian Private Company',
      abn_status: 'active',
      abn_status_from: '1999-11-01',
      abn_status_source: 'abn_bulk_extract',
      asic: {
        acn: '004085616',
        status: 'REGD',
        status_meaning: 'Registered',
        in_good_standing: true,
        registered: '1974-05-02',
        deregistered: null,
        former_names: ['KALBAR EARTHWORKS PTY LTD'],
        as_of: '2026-09-22T00:00:00.000Z',
        age_days: 3,
        caveat: 'ASIC republishes its company dataset weekly, so this standing may lag the live register (ASIC Connect) by up to a week.',
      },
    });
    assert.deepEqual(coverageOf(result), { abr: 'read', asic: 'read', abn_lookup: 'not_configured' });
    assert.equal(result.candidates.length, 1);
    assert.equal(result.candidates[0]!.match.rule, 'identifier');
  });

  it('an ACN resolves, leading zeros kept, and finds the ABN that records it when ASIC left the ABN blank', async () => {
    const result = await resolve('142-887-312');
    assert.equal(result.status, 'resolved');
    assert.equal(result.parsed_as, 'acn');
    assert.deepEqual(result.selected?.identifiers, { abn: '67142887312', acn: '142887312' });
    const deregistered = await resolve('ACN 003 124 507');
    assert.equal(deregistered.selected?.asic?.status, 'DRGD');
    assert.equal(deregistered.selected?.asic?.in_good_standing, false);
    assert.equal(deregistered.selected?.asic?.deregistered, '2025-11-18');
    assert.equal(deregistered.selected?.abn_status, 'cancelled');
  });

  it('a sole trader\'s ABN resolves with no ASIC block and no personal name', async () => {
    const result = await resolve('64 312 987 660');
    assert.equal(result.status, 'resolved');
    assert.equal(result.selected?.asic, null);
    assert.equal(result.selected?.names.legal, null);
    assert.deepEqual(result.selected?.names.business, ['JANES PLUMBING']);
  });

  it('a number failing its check digit is a typo: valid readings one digit away, the held ones as candidates, no name search', async () => {
    const namesAsked: string[] = [];
    const watched: CompanyRegisters = {
      ...registers,
      abrNames: (query) => (namesAsked.push(query.full), registers.abrNames(query)),
      asicNames: (query) => (namesAsked.push(query.full), registers.asicNames(query)),
    };
    const result = await resolve('53 004 085 617', { registers: watched });
    assert.equal(result.status, 'inconclusive');
    assert.equal(result.selected, null);
    assert.equal(result.identifier?.check_digits, 'invalid');
    assert.ok(result.identifier?.nearest_valid.includes('53 004 085 616'));
    assert.match(result.resolved_because, /fails its check digit, so it is a typo/);
    assert.deepEqual(result.candidates.map((candidate) => [candidate.identifiers.abn, candidate.match.rule]), [['53004085616', 'one_digit_correction']]);
    assert.deepEqual(namesAsked, []);
  });

  it('a transposed number is offered the number with the two digits swapped back first, held ones as candidates by that rule', async () => {
    // 53 004 085 616 typed with its 6 and 1 swapped.
    const result = await resolve('53 004 085 661');
    assert.equal(result.status, 'inconclusive');
    assert.equal(result.identifier?.check_digits, 'invalid');
    assert.equal(result.identifier?.nearest_valid[0], '53 004 085 616');
    assert.deepEqual(result.identifier?.corrections[0], { number: '53 004 085 616', change: 'adjacent_transposition' });
    assert.deepEqual(result.identifier?.nearest_valid, result.identifier?.corrections.map((correction) => correction.number));
    assert.deepEqual(result.candidates.map((candidate) => [candidate.identifiers.abn, candidate.match.rule]), [['53004085616', 'transposed_digits']]);
    assert.match(result.resolved_because, /with two adjacent digits swapped back, 53 004 085 616/);
  });

  it('a name gives candidates ordered by match quality and selects none', async () => {
    const result = await resolve('Coastal');
    assert.equal(result.status, 'ambiguous');
    assert.equal(result.selected, null);
    assert.deepEqual(result.candidates.map((candidate) => candidate.names.legal), ['COASTAL CARE FOUNDATION LIMITED', 'COASTAL MODULAR BUILDINGS PTY LTD']);
    assert.deepEqual(result.candidates.map((candidate) => candidate.match.rule), ['all_words', 'all_words']);
    assert.equal(result.candidates[1]!.asic?.status, 'EXAD');
    assert.equal(result.candidates[1]!.asic?.in_good_standing, false);
    assert.deepEqual(result.candidates[1]!.match.found_in, ['abr', 'asic']);

    const exact = await resolve('harbourside civil pty. ltd.');
    assert.equal(exact.status, 'ambiguous');
    assert.equal(exact.selected, null);
    assert.equal(exact.candidates[0]!.match.rule, 'exact');
    assert.equal(exact.candidates[0]!.identifiers.abn, '53004085616');
  });

  it('a former name and a business name find their company', async () => {
    const former = await resolve('Kalbar Earthworks');
    assert.equal(former.candidates[0]?.identifiers.acn, '004085616');
    assert.equal(former.candidates[0]?.match.name_kind, 'former');
    const business = await resolve('Janes Plumbing');
    assert.equal(business.candidates[0]?.identifiers.abn, '64312987660');
    assert.equal(business.candidates[0]?.match.name_kind, 'business');
  });

  it('not_found only when every register answered', async () => {
    const result = await resolve('51 824 753 556');
    assert.equal(result.status, 'not_found');
    assert.deepEqual(coverageOf(result), { abr: 'read', asic: 'read', abn_lookup: 'not_configured' });
    const name = await resolve('Zebra Quantum Logistics');
    assert.equal(name.status, 'not_found');
  });

  it('New Zealand identifiers and names are inconclusive, with the reason', async () => {
    const nzbn = await resolve('9429046393920');
    assert.equal(nzbn.status, 'inconclusive');
    assert.equal(nzbn.jurisdiction, 'NZ');
    assert.match(nzbn.resolved_because, /New Zealand identifiers are not resolved/);
    assert.deepEqual(coverageOf(nzbn), { abr: 'not_searched', asic: 'not_searched', abn_lookup: 'not_configured', nzbn: 'not_searched' });
    const name = await resolve('Harbourside Civil', { jurisdiction: 'NZ' });
    assert.equal(name.status, 'inconclusive');
  });

  it('a register that could not be read makes the answer inconclusive, never not_found', async () => {
    const failing: CompanyRegisters = { ...registers, asicByAcn: async () => { throw new Error('IO Error: could not read block'); } };
    const result = await resolve('ACN 004 085 616', { registers: failing });
    assert.equal(result.status, 'inconclusive');
    assert.equal(result.selected, null);
    assert.deepEqual(coverageOf(result), { abr: 'read', asic: 'unreadable', abn_lookup: 'not_configured' });
    assert.match(result.coverage[1]!.detail, /ASIC's company dataset could not be read: IO Error: could not read block/);

    const unknown = await resolve('51 824 753 556', { registers: { unavailable: 'No release has been published yet; the nightly run publishes one.' } });
    assert.equal(unknown.status, 'inconclusive');
  });

  it('a release whose nightly run did not include the ASIC dataset reads it as an unreadable register', async () => {
    const withoutAsic = { ...release.manifest, sources: release.manifest.sources.filter((source) => source.id !== 'au_asic_companies') };
    const result = await resolve('Coastal', { registers: releaseRegisters({ store: release.store, manifest: withoutAsic }) });
    assert.equal(result.status, 'inconclusive');
    assert.equal(result.candidates.length, 2);
    assert.match(result.coverage.find((entry) => entry.source === 'asic')!.detail, /does not hold ASIC's company dataset/);
  });

  it('names are looked up by a common word only when the query has no rarer one', async () => {
    const names = async (query: string, commonTermRows?: number) =>
      [...new Set((await releaseRegisters(release, commonTermRows === undefined ? {} : { commonTermRows }).abrNames(normaliseName(query))).map((hit) => hit.name))].sort();
    assert.deepEqual(await names('Coastal Care'), ['COASTAL CARE FOUNDATION LIMITED', 'COASTAL MODULAR BUILDINGS PTY LTD']);
    // COASTAL is held by two ABN names, CARE by one: with more than one name counting as common, CARE alone is read.
    assert.deepEqual(await names('Coastal Care', 1), ['COASTAL CARE FOUNDATION LIMITED']);
    // Every word common: the least common one is still read.
    assert.deepEqual(await names('Coastal', 1), ['COASTAL CARE FOUNDATION LIMITED', 'COASTAL MODULAR BUILDINGS PTY LTD']);
  });

  it('a release built before the name index answers identifiers, and says why a name could not be searched', async () => {
    const dir = await tempDir('company-older-release-');
    const older = await openStore(join(dir, 'store.duckdb'));
    try {
      await older.exec(`ATTACH '${release.storePath}' AS current (READ_ONLY); CREATE TABLE abn_entities AS SELECT * FROM current.abn_entities;
        CREATE TABLE companies AS SELECT * FROM current.companies; DETACH current`);
      const registersOfOlder = releaseRegisters({ store: older, manifest: release.manifest });
      assert.equal((await resolve('53 004 085 616', { registers: registersOfOlder })).status, 'resolved');
      const named = await resolve('Harbourside Civil', { registers: registersOfOlder });
      assert.equal(named.status, 'inconclusive');
      assert.match(named.coverage[0]!.detail, /predates the name index \(table company_name_terms\), which the next nightly run builds/);
    } finally {
      older.close();
    }
  });

  describe('with ABN Lookup configured (a local fake)', () => {
    let fake: AbnLookupFake;
    let live: AbnLookup;
    before(async () => {
      fake = await startAbnLookupFake();
      live = createAbnLookup({ guid: fake.guid, baseUrl: fake.baseUrl, transport: createProviderTransport({ userAgent: 'test', timeoutMs: 300, minIntervalMs: 0 }) });
    });
    after(() => fake.close());

    it('the live status replaces the week-old one, and a number only the live register holds resolves', async () => {
      fake.mode = 'ok';
      const cancelled = await resolve('96 608 139 724', { abnLookup: live });
      assert.equal(cancelled.status, 'resolved');
      assert.equal(cancelled.selected?.abn_status, 'cancelled');
      assert.equal(cancelled.selected?.abn_status_source, 'abn_lookup');
      assert.equal(coverageOf(cancelled).abn_lookup, 'read');
      const liveOnly = await resolve('51 824 753 556', { abnLookup: live });
      assert.equal(liveOnly.status, 'resolved');
      assert.equal(liveOnly.selected?.names.legal, 'AUSTRALIAN TAXATION OFFICE');
    });

    it('a live lookup that fails is reported in coverage and the release\'s registers still answer', async () => {
      fake.mode = 'http500';
      const result = await resolve('53 004 085 616', { abnLookup: live });
      assert.equal(result.status, 'resolved');
      assert.equal(result.selected?.abn_status_source, 'abn_bulk_extract');
      assert.equal(coverageOf(result).abn_lookup, 'unreachable');
      fake.mode = 'ok';
    });

    it('names found live are scored by the same rules', async () => {
      fake.mode = 'ok';
      const before = fake.requests.length;
      const result = await resolve('Australian Taxation Office', { abnLookup: live });
      // One name search; what it says of each name is enough for a candidate, so no call per name follows.
      assert.deepEqual(fake.requests.slice(before).map((url) => url.pathname), ['/json/MatchingNames.aspx']);
      assert.equal(result.candidates[0]?.names.legal, 'AUSTRALIAN TAXATION OFFICE');
      assert.equal(result.candidates[0]?.abn_status, 'active');
      assert.equal(result.status, 'ambiguous');
      assert.deepEqual(result.candidates.map((candidate) => [candidate.identifiers.abn, candidate.match.rule, candidate.match.found_in]), [['51824753556', 'exact', ['abn_lookup']]]);
    });
  });
});
