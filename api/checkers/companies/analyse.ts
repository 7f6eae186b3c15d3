import type { AbnLookup, AbnLookupEntry, AbnLookupName } from '../../providers/abn-lookup.ts';
import type { ProviderResult } from '../../providers/http.ts';
import { correctionKind, formatIdentifier, parseQuery, schemeName } from './identifiers.ts';
import { matchName, normaliseName, type NameMatch, type NormalisedName } from './names.ts';
import { REGISTER_SOURCES, type AbrEntry, type AsicEntry, type CompanyRegisters, type NameHit, type RegisterName, type RegisterState } from './registers.ts';
import type { Company, CompanyCandidate, CompanyResolution, Coverage } from './result.ts';
import { asicStanding } from './standing.ts';

/**
 * POST /v1/companies/resolve (spec, Company resolution result; Other checker rules): an ABN or ACN resolves
 * directly; a number failing its check digit is reported with the valid numbers one digit away and never
 * searched as a name; a name only produces candidates; New Zealand identifiers are `inconclusive`; any register
 * that could not be read makes the answer `inconclusive`, and `not_found` means every register answered.
 */

export interface ResolveRequest {
  query: string;
  jurisdiction?: 'AU' | 'NZ' | undefined;
}

export interface ResolveContext {
  /** The registers of the loaded release, or why there is none. */
  registers: CompanyRegisters | { unavailable: string };
  abnLookup: AbnLookup;
  now: Date;
}

export const MAX_CANDIDATES = 25;
// Names asked of ABN Lookup's name search; its own order is not ours, so every name returned is scored here.
const LIVE_NAME_RESULTS = 20;

export const LIMITATIONS =
  "Coverage for a person to act on, never a verdict. Resolved from the ABN bulk extract and ASIC's company dataset as this release holds them " +
  '(both republished weekly, so standing may lag the live registers by up to a week), and from ABN Lookup live when this server is configured ' +
  'for it (`coverage` says). A name only produces candidates: their order is match quality, never a selection. Officeholders and directors are ' +
  "not included. New Zealand identifiers are not resolved. Individuals' own names are not searched (the bulk extract's personal names are not " +
  'kept); their business and trading names are. A number that passes its check digit may still never have been issued.';

type Read<T> = { ok: true; value: T } | { ok: false; detail: string };

/** What was learned of one register while answering. */
interface RegisterUse {
  state: RegisterState;
  searched: boolean;
  failure: string | null;
}

interface Entity {
  abr: AbrEntry | null;
  asic: AsicEntry | null;
  live: AbnLookupEntry | null;
}

export async function resolveCompany(request: ResolveRequest, context: ResolveContext): Promise<CompanyResolution> {
  const parsed = parseQuery(request.query);
  const resolver = new Resolution(request, context);
  if (parsed.kind === 'name') return resolver.byName(parsed.name);
  if (parsed.kind === 'wrong_length') {
    return resolver.finish({
      parsed_as: parsed.scheme ?? 'number',
      jurisdiction: parsed.scheme === 'nzbn' ? 'NZ' : resolver.country,
      status: 'inconclusive',
      resolved_because: parsed.detail,
      identifier: { scheme: parsed.scheme, digits: parsed.digits, formatted: parsed.digits, check_digits: 'wrong_length', nearest_valid: [], corrections: [] },
    });
  }
  if (parsed.scheme === 'nzbn') return resolver.nzbn(parsed.digits, parsed.formatted, parsed.valid, parsed.corrections);
  if (!parsed.valid) return resolver.typo(parsed.scheme, parsed.digits, parsed.formatted, parsed.corrections);
  return resolver.byIdentifier(parsed.scheme, parsed.digits, parsed.formatted);
}

/** One answer being assembled: the registers consulted, and how each fared. */
class Resolution {
  readonly country: 'AU' | 'NZ';
  readonly #request: ResolveRequest;
  readonly #context: ResolveContext;
  readonly #uses = new Map<RegisterName, RegisterUse>();
  #live: { asked: boolean; failure: ProviderResult<never> | null } = { asked: false, failure: null };

  constructor(request: ResolveRequest, context: ResolveContext) {
    this.#request = request;
    this.#context = context;
    this.country = request.jurisdiction ?? 'AU';
  }

  async byIdentifier(scheme: 'abn' | 'acn', digits: string, formatted: string): Promise<CompanyResolution> {
    const label = `${schemeName(scheme)} ${formatted}`;
    const entities = await this.#entitiesFor(scheme === 'abn' ? { abns: [digits], acns: [] } : { abns: [], acns: [digits] });
    const live = await this.#askLive(scheme === 'abn' ? (lookup) => lookup.byAbn(digits) : (lookup) => lookup.byAcn(digits));
    const all = mergeLive(entities, live ? [live] : []);
    const found = all.find((entity) => (scheme === 'abn' ? abnOf(entity) === digits : acnOf(entity) === digits)) ?? null;
    const identifier = { scheme, digits, formatted, check_digits: 'valid' as const, nearest_valid: [], corrections: [] };
    const unread = this.#unreadRegisters();
    const candidates = found ? [this.#candidate(found, { rule: 'identifier', score: 1, matched: formatted, name_kind: 'identifier' })] : [];
    if (unread.length > 0) {
      return this.finish({
        parsed_as: scheme, jurisdiction: 'AU', status: 'inconclusive', identifier, candidates,
        resolved_because: `${unread.join(' and ')} could not be read, so ${label} is neither resolved nor ruled out${found ? ' (what the other register holds is listed as a candidate)' : ''}.`,
      });
    }
    if (!found) {
      return this.finish({
        parsed_as: scheme, jurisdiction: 'AU', status: 'not_found', identifier,
        resolved_because: `${label} passes its check digit, but no register consulted holds it (${this.#answeredList()}).`,
      });
    }
    return this.finish({
      parsed_as: scheme, jurisdiction: 'AU', status: 'resolved', identifier, candidates,
      selected: this.#company(found),
      resolved_because: `${label} resolves directly: ${foundWhere(found)}.`,
    });
  }

  async typo(scheme: 'abn' | 'acn', digits: string, formatted: string, corrections: string[]): Promise<CompanyResolution> {
    const label = `${schemeName(scheme)} ${formatted}`;
    const entities = await this.#entitiesFor(scheme === 'abn' ? { abns: corrections, acns: [] } : { abns: [], acns: corrections });
    const readings = corrections.map((reading) => formatIdentifier(scheme, reading));
    const changes = corrections.map((reading) => ({ number: formatIdentifier(scheme, reading), change: correctionKind(digits, reading) }));
    // Candidates keep the readings' order: a held transposition first (the likelier slip per reading, identifiers.ts).
    const candidates = corrections.flatMap((reading) => {
      const entity = entities.find((held) => (scheme === 'abn' ? abnOf(held) === reading : acnOf(held) === reading));
      const transposed = correctionKind(digits, reading) === 'adjacent_transposition';
      return entity ? [this.#candidate(entity, { rule: transposed ? 'transposed_digits' : 'one_digit_correction', score: transposed ? 0.6 : 0.5, matched: formatIdentifier(scheme, reading), name_kind: 'identifier' })] : [];
    });
    const held = candidates.length > 0 ? ` The registers hold ${candidates.length} of them, listed as candidates.` : '';
    const swapped = changes.filter((change) => change.change === 'adjacent_transposition').map((change) => change.number);
    const changed = changes.filter((change) => change.change === 'one_digit_change').map((change) => change.number);
    const named = [
      swapped.length > 0 ? `with two adjacent digits swapped back, ${swapped.join(', ')}` : null,
      changed.length > 0 ? `one digit away, ${changed.join(', ')}` : null,
    ].filter((part) => part !== null);
    return this.finish({
      parsed_as: scheme, jurisdiction: 'AU', status: 'inconclusive', candidates,
      identifier: { scheme, digits, formatted, check_digits: 'invalid', nearest_valid: readings, corrections: changes },
      resolved_because:
        `${label} fails its check digit, so it is a typo, not a number the register could hold; it was not searched as a name. ` +
        (named.length > 0 ? `Valid numbers ${named.join('; and ')}.${held}` : 'No valid number is one adjacent swap or one digit away.'),
    });
  }

  async nzbn(digits: string, formatted: string, valid: boolean, corrections: string[]): Promise<CompanyResolution> {
    return this.finish({
      parsed_as: 'nzbn', jurisdiction: 'NZ', status: 'inconclusive',
      identifier: { scheme: 'nzbn', digits, formatted, check_digits: valid ? 'valid' : 'invalid', nearest_valid: corrections, corrections: corrections.map((reading) => ({ number: reading, change: correctionKind(digits, reading) })) },
      resolved_because:
        (valid ? `NZBN ${formatted} passes its check digit` : `NZBN ${formatted} fails its check digit (a typo)`) +
        ', but New Zealand identifiers are not resolved: this service holds no copy of the NZBN register.',
    });
  }

  async byName(name: string): Promise<CompanyResolution> {
    if (this.country === 'NZ') {
      return this.finish({
        parsed_as: 'name', jurisdiction: 'NZ', status: 'inconclusive',
        resolved_because: 'New Zealand companies are not resolved: this service holds no copy of the New Zealand Companies Office or NZBN registers.',
      });
    }
    const query = normaliseName(name);
    const [abrHits, asicHits] = await Promise.all([
      this.#read('abr', (registers) => registers.abrNames(query)),
      this.#read('asic', (registers) => registers.asicNames(query)),
    ]);
    const liveNames = await this.#askLive((lookup) => lookup.byName(name, LIVE_NAME_RESULTS));
    const scored = {
      abr: bestPerKey(query, abrHits ?? []),
      asic: bestPerKey(query, asicHits ?? []),
      live: bestPerKey(query, (liveNames ?? []).map((entry) => ({ key: entry.abn, name: entry.name, kind: liveNameKind(entry.name_type) }))),
    };
    const linked = await this.#entitiesFor({ abns: [...new Set([...scored.abr.keys(), ...scored.live.keys()])], acns: [...scored.asic.keys()] });
    // A name found only by ABN Lookup: its entity is what the name search said of it (no call per name).
    const liveOnly = (liveNames ?? []).filter((entry) => scored.live.has(entry.abn) && !linked.some((entity) => abnOf(entity) === entry.abn));
    const entities = mergeLive(linked, uniqueBy(liveOnly, (entry) => entry.abn).map(entryOfName));
    const ranked = entities
      .map((entity) => ({ entity, best: bestOfEntity(entity, scored) }))
      .filter((item): item is { entity: Entity; best: NonNullable<ReturnType<typeof bestOfEntity>> } => item.best !== null)
      .sort((a, b) => b.best.score - a.best.score || (legalName(a.entity) ?? '').localeCompare(legalName(b.entity) ?? '') || entityKey(a.entity).localeCompare(entityKey(b.entity)));
    const candidates = ranked.slice(0, MAX_CANDIDATES).map(({ entity, best }) => this.#candidate(entity, best));
    const unread = this.#unreadRegisters();
    const shown = ranked.length > MAX_CANDIDATES ? `the ${MAX_CANDIDATES} closest of ${ranked.length} matches` : `${ranked.length} match${ranked.length === 1 ? '' : 'es'}`;
    if (unread.length > 0) {
      return this.finish({
        parsed_as: 'name', jurisdiction: 'AU', status: 'inconclusive', candidates,
        resolved_because: `${unread.join(' and ')} could not be read, so the candidates (${shown}) may be incomplete; a name never selects a company.`,
      });
    }
    if (ranked.length === 0) {
      return this.finish({
        parsed_as: 'name', jurisdiction: 'AU', status: 'not_found',
        resolved_because: `No name in the registers consulted (${this.#answeredList()}) matches "${name}" by the rules in \`match.rule\`.`,
      });
    }
    return this.finish({
      parsed_as: 'name', jurisdiction: 'AU', status: 'ambiguous', candidates,
      resolved_because: `A name only produces candidates: ${shown}, best first; check the ABN or ACN of the one you mean and resolve that.`,
    });
  }

  /** The reply, with coverage of every register (searched or not) and the shared limitations. */
  finish(parts: Pick<CompanyResolution, 'parsed_as' | 'jurisdiction' | 'status' | 'resolved_because'> & Partial<Pick<CompanyResolution, 'identifier' | 'selected' | 'candidates'>>): CompanyResolution {
    return {
      query: this.#request.query,
      parsed_as: parts.parsed_as,
      jurisdiction: parts.jurisdiction,
      status: parts.status,
      resolved_because: parts.resolved_because,
      identifier: parts.identifier ?? null,
      selected: parts.selected ?? null,
      candidates: parts.candidates ?? [],
      coverage: this.#coverage(parts.parsed_as === 'nzbn' || parts.jurisdiction === 'NZ'),
      limitations: LIMITATIONS,
    };
  }

  async #state(register: RegisterName): Promise<RegisterState> {
    const { registers } = this.#context;
    if ('unavailable' in registers) return { readable: false, detail: registers.unavailable };
    try {
      return await registers.state(register);
    } catch (error) {
      return { readable: false, detail: `${capitalise(REGISTER_SOURCES[register].title)} could not be read: ${errorText(error)}.` };
    }
  }

  /** Runs one read of a register, noting that it was searched and whether it answered; null when it did not. */
  async #read<T>(register: RegisterName, read: (registers: CompanyRegisters) => Promise<T>): Promise<T | null> {
    const state = await this.#state(register);
    const use = this.#uses.get(register) ?? { state, searched: true, failure: null };
    this.#uses.set(register, use);
    if (!state.readable || use.failure !== null) return null;
    const answer: Read<T> = await read(this.#context.registers as CompanyRegisters).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, detail: `${capitalise(REGISTER_SOURCES[register].title)} could not be read: ${errorText(error)}.` }),
    );
    if (!answer.ok) {
      use.failure = answer.detail;
      return null;
    }
    return answer.value;
  }

  /** One call to ABN Lookup when it is configured; its failure is noted for `coverage`, never a finding. */
  async #askLive<T>(call: (lookup: AbnLookup) => Promise<ProviderResult<T | null>>): Promise<T | null> {
    const { abnLookup } = this.#context;
    if (!abnLookup.configured) return null;
    this.#live.asked = true;
    if (this.#live.failure) return null;
    const answer = await call(abnLookup);
    if (!answer.ok) {
      this.#live.failure = answer;
      return null;
    }
    return answer.value;
  }

  /** The entities holding these ABNs and ACNs, each with its entry in both registers where they link. */
  async #entitiesFor(keys: { abns: string[]; acns: string[] }): Promise<Entity[]> {
    const [abrByAbn, asicByAcn] = await Promise.all([
      this.#read('abr', (registers) => registers.abrByAbn(keys.abns)),
      this.#read('asic', (registers) => registers.asicByAcn(keys.acns)),
    ]);
    // Follow the links either way: an ABN's ACN (`asic_number`), a company's ABN.
    const abns = [...new Set([...keys.abns, ...(asicByAcn ?? []).flatMap((entry) => (entry.abn ? [entry.abn] : []))])];
    const acns = [...new Set([...keys.acns, ...(abrByAbn ?? []).flatMap((entry) => (entry.asic_number ? [entry.asic_number] : []))])];
    const [abrLinked, abrByAcn, asicLinked, asicByAbn] = await Promise.all([
      this.#read('abr', (registers) => registers.abrByAbn(abns.filter((abn) => !keys.abns.includes(abn)))),
      this.#read('abr', (registers) => registers.abrByAcn(acns)),
      this.#read('asic', (registers) => registers.asicByAcn(acns.filter((acn) => !keys.acns.includes(acn)))),
      this.#read('asic', (registers) => registers.asicByAbn(abns)),
    ]);
    return link(uniqueBy([...(abrByAbn ?? []), ...(abrLinked ?? []), ...(abrByAcn ?? [])], (entry) => entry.abn), uniqueBy([...(asicByAcn ?? []), ...(asicLinked ?? []), ...(asicByAbn ?? [])], (entry) => entry.acn));
  }

  #unreadRegisters(): string[] {
    const unread: string[] = [];
    for (const register of ['abr', 'asic'] as const) {
      const use = this.#uses.get(register);
      const liveAnswered = register === 'abr' && this.#live.asked && this.#live.failure === null;
      if (use && (!use.state.readable || use.failure !== null) && !liveAnswered) unread.push(capitalise(REGISTER_SOURCES[register].title));
    }
    return unread;
  }

  #answeredList(): string {
    const answered = (['abr', 'asic'] as const).filter((register) => this.#uses.get(register)?.state.readable).map((register) => REGISTER_SOURCES[register].title);
    if (this.#live.asked && this.#live.failure === null) answered.push('ABN Lookup (live)');
    return answered.join(', ');
  }

  #coverage(newZealand: boolean): Coverage[] {
    const entries: Coverage[] = (['abr', 'asic'] as const).map((register) => {
      const use = this.#uses.get(register);
      if (!use) return { source: register, status: 'not_searched', detail: `${capitalise(REGISTER_SOURCES[register].title)} was not searched: nothing in the query to look up there.` };
      if (use.failure !== null) return { source: register, status: 'unreadable', detail: use.failure };
      if (!use.state.readable) return { source: register, status: 'unreadable', detail: use.state.detail };
      return { source: register, status: use.state.stale ? 'stale' : 'read', detail: use.state.detail };
    });
    const { abnLookup } = this.#context;
    if (!abnLookup.configured) {
      entries.push({ source: 'abn_lookup', status: 'not_configured', detail: 'ABN Lookup (live) is not configured on this server (SVC_ABN_LOOKUP_GUID is unset): the release\'s copies of the registers answered alone.' });
    } else if (!this.#live.asked) {
      entries.push({ source: 'abn_lookup', status: 'not_searched', detail: 'ABN Lookup (live) was not asked: nothing in the query to look up there.' });
    } else if (this.#live.failure && !this.#live.failure.ok) {
      entries.push({ source: 'abn_lookup', status: this.#live.failure.reason === 'refused' ? 'refused' : 'unreachable', detail: `${this.#live.failure.detail} The release's copies of the registers answered without it.` });
    } else {
      entries.push({ source: 'abn_lookup', status: 'read', detail: "Asked ABN Lookup (live): an ABN's status comes from it where it answered." });
    }
    if (newZealand) entries.push({ source: 'nzbn', status: 'not_searched', detail: 'The New Zealand Business Number register is not held or queried by this service.' });
    return entries;
  }

  #company(entity: Entity): Company {
    const { abr, asic, live } = entity;
    const status = live ?? (abr ? { abn_status: abr.abn_status === 'ACT' ? 'active' as const : abr.abn_status === 'CAN' ? 'cancelled' as const : null, abn_status_from: abr.abn_status_from } : null);
    return {
      identifiers: { abn: abnOf(entity), acn: acnOf(entity) },
      names: {
        legal: legalName(entity),
        business: [...new Set([...(abr?.business_names ?? []), ...(live?.business_names ?? [])])],
        trading: abr?.trading_names ?? [],
      },
      entity_type: abr?.entity_type ?? live?.entity_type ?? null,
      abn_status: status?.abn_status ?? null,
      abn_status_from: status?.abn_status_from ?? null,
      abn_status_source: live ? 'abn_lookup' : abr ? 'abn_bulk_extract' : null,
      asic: asic ? asicStanding(asic, this.#context.now) : null,
    };
  }

  #candidate(entity: Entity, match: { rule: CompanyCandidate['match']['rule']; score: number; matched: string; name_kind: CompanyCandidate['match']['name_kind'] }): CompanyCandidate {
    const foundIn = [...(entity.abr ? ['abr' as const] : []), ...(entity.asic ? ['asic' as const] : []), ...(entity.live ? ['abn_lookup' as const] : [])];
    return { ...this.#company(entity), match: { ...match, found_in: foundIn } };
  }
}

/** Pairs each ASIC company with the ABN entry naming it (by ABN, or by the ACN the ABN entry records). */
function link(abrEntries: AbrEntry[], asicEntries: AsicEntry[]): Entity[] {
  const entities: Entity[] = abrEntries.map((abr) => ({ abr, asic: null, live: null }));
  for (const asic of asicEntries) {
    const owner = entities.find((entity) => entity.asic === null && entity.abr !== null && (entity.abr.abn === asic.abn || entity.abr.asic_number === asic.acn));
    if (owner) owner.asic = asic;
    else entities.push({ abr: null, asic, live: null });
  }
  return entities;
}

function mergeLive(entities: Entity[], live: AbnLookupEntry[]): Entity[] {
  const merged = entities.map((entity) => ({ ...entity }));
  for (const entry of live) {
    const owner = merged.find((entity) => abnOf(entity) === entry.abn || (entry.acn !== null && acnOf(entity) === entry.acn));
    if (owner) owner.live = entry;
    else merged.push({ abr: null, asic: null, live: entry });
  }
  return merged;
}

type ScoredNames = Map<string, NameMatch & { matched: string; kind: NameHit['kind'] }>;

/** Each key's best-matching name among the hits. */
function bestPerKey(query: NormalisedName, hits: NameHit[]): ScoredNames {
  const best: ScoredNames = new Map();
  for (const hit of hits) {
    const match = matchName(query, normaliseName(hit.name));
    if (!match) continue;
    const held = best.get(hit.key);
    if (!held || match.score > held.score || (match.score === held.score && hit.kind === 'legal')) best.set(hit.key, { ...match, matched: hit.name, kind: hit.kind });
  }
  return best;
}

function bestOfEntity(entity: Entity, scored: { abr: ScoredNames; asic: ScoredNames; live: ScoredNames }) {
  const abn = abnOf(entity);
  const acn = acnOf(entity);
  const found = [abn ? scored.abr.get(abn) : undefined, acn ? scored.asic.get(acn) : undefined, abn ? scored.live.get(abn) : undefined]
    .filter((match) => match !== undefined)
    .sort((a, b) => b.score - a.score);
  const best = found[0];
  return best ? { rule: best.rule, score: best.score, matched: best.matched, name_kind: best.kind } : null;
}

/** What ABN Lookup's name search says of an ABN, as its entry: the status, and the name under its kind. */
function entryOfName(found: AbnLookupName): AbnLookupEntry {
  const kind = liveNameKind(found.name_type);
  return {
    abn: found.abn,
    abn_status: found.abn_status,
    abn_status_from: null,
    acn: null,
    entity_name: kind === 'legal' ? found.name : null,
    entity_type: null,
    business_names: kind === 'business' ? [found.name] : [],
  };
}

/** ABN Lookup's `NameType` ("Entity Name", "Business Name", "Trading Name", …) as a kind of name. */
function liveNameKind(nameType: string | null): NameHit['kind'] {
  if (nameType === null) return 'other';
  if (/entity/i.test(nameType)) return 'legal';
  if (/business/i.test(nameType)) return 'business';
  if (/trading/i.test(nameType)) return 'trading';
  return 'other';
}

function abnOf(entity: Entity): string | null {
  const fromAsic = entity.asic?.abn && /^\d{11}$/.test(entity.asic.abn) ? entity.asic.abn : null;
  return entity.abr?.abn ?? entity.live?.abn ?? fromAsic;
}

function acnOf(entity: Entity): string | null {
  return entity.asic?.acn ?? entity.abr?.asic_number ?? entity.live?.acn ?? null;
}

function legalName(entity: Entity): string | null {
  return entity.abr?.name ?? entity.live?.entity_name ?? entity.asic?.name ?? null;
}

function entityKey(entity: Entity): string {
  return abnOf(entity) ?? `acn:${acnOf(entity) ?? ''}`;
}

/** Where a resolved number was found, one clause per register. */
function foundWhere(entity: Entity): string {
  return [
    ...(entity.abr ? [`the ABN bulk extract as of ${entity.abr.as_of} lists ABN ${formatIdentifier('abn', entity.abr.abn)}`] : []),
    ...(entity.live ? [`ABN Lookup (live) answers for ABN ${formatIdentifier('abn', entity.live.abn)} now`] : []),
    ...(entity.asic ? [`ASIC's company dataset as of ${entity.asic.as_of} lists ACN ${formatIdentifier('acn', entity.asic.acn)}`] : []),
  ].join('; ');
}

function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => (seen.has(key(item)) ? false : (seen.add(key(item)), true)));
}

function capitalise(text: string): string {
  return `${text.slice(0, 1).toUpperCase()}${text.slice(1)}`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
