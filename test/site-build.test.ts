// The static site as the nightly run publishes it: every internal link resolves, each page's JSON twin is
// the API's anonymous reply for the same thing, pages say when their figures were computed, stay small,
// never name holders, and the server serves the release's site beside the API.
import assert from 'node:assert/strict';
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { after, before, test } from 'node:test';
import * as cheerio from 'cheerio';
import { createApp } from '../api/app.ts';
import { ReleaseStore } from '../api/release-store.ts';
import { buyerDetail, buyerDetails } from '../data/intelligence/buyers.ts';
import { ANONYMOUS, readRegistry, type IntelContext } from '../data/intelligence/context.ts';
import { Manifest, pointCurrentAt, releasesDir } from '../data/release.ts';
import { openStore } from '../data/store.ts';
import { buildSite, publishSite, SiteBuildError, writeSitemap } from '../pipeline/site-build.ts';
import { browseRelease } from './helpers/site-browser.ts';
import { crawlSite, sitemapPaths } from './helpers/site-pages.ts';
import { fixtureSiteRelease, type SiteRelease } from './helpers/site-release.ts';
import { rowsAt } from '../site/lib/csv.ts';
import { rawWords } from './helpers/plain-words.ts';

let release: SiteRelease;
let pages: string[];

before(async () => {
  release = await fixtureSiteRelease();
  pages = (await readdir(release.siteDir, { recursive: true })).filter((f) => f.endsWith('.html') && !f.startsWith('pagefind/')).sort();
});
after(async () => {
  await rm(release.dataDir, { recursive: true, force: true });
});

const urlOf = (file: string) => `/${file.replace(/index\.html$/, '')}`;
const html = async (file: string) => cheerio.load(await readFile(join(release.siteDir, file), 'utf8'));

/** The file a site path is served from, or null. */
async function fileFor(path: string): Promise<string | null> {
  const clean = decodeURIComponent(path.split('#')[0]!.split('?')[0]!);
  const candidate = join(release.siteDir, clean.endsWith('/') ? `${clean}index.html` : clean);
  return stat(candidate).then((info) => (info.isFile() ? candidate : null), () => null);
}

test('the publish stage built every page kind', () => {
  const urls = pages.map(urlOf);
  for (const expected of ['/', '/buyers/', '/states/nsw/tenders/', '/states/nsw/closed/', '/states/', '/states/nsw/', '/states/au/', '/states/nz/', '/trades/', '/grants/', '/sources/', '/search/', '/definitions/', '/match/', '/account/', '/account/sign-in/', '/account/orgs/', '/account/orgs/org/', '/account/bids/', '/account/bids/bid/', '/404.html']) {
    assert.ok(urls.includes(expected), `${expected} was built (built: ${urls.join(' ')})`);
  }
  assert.ok(urls.some((u) => /^\/trades\/[a-z-]+\/[a-z]+\/$/.test(u)), 'at least one trade × state page');
  assert.ok(release.site.built && release.site.pages === pages.length, 'the build reports the pages it wrote');
});

/** What a page links: its anchors, its `<link>`s (stylesheets, its JSON twin, its canonical address) and scripts. */
function referencesOf($: cheerio.CheerioAPI): string[] {
  return [...$('a[href]').map((_, a) => $(a).attr('href')), ...$('link[href]').map((_, l) => $(l).attr('href')), ...$('script[src]').map((_, s) => $(s).attr('src'))]
    .filter((ref): ref is string => Boolean(ref));
}

test('every internal link, stylesheet and script of the built site resolves', async () => {
  const broken: string[] = [];
  let checked = 0;
  for (const file of pages) {
    const $ = await html(file);
    for (const ref of referencesOf($)) {
      if (/^(https?:|mailto:|data:)/.test(ref)) continue;
      if (ref.startsWith('#')) {
        if ($(`[id="${ref.slice(1)}"]`).length === 0) broken.push(`${urlOf(file)} → ${ref}`);
        continue;
      }
      checked += 1;
      const target = new URL(ref, `http://site${urlOf(file)}`).pathname;
      // The API's own routes are served beside the site (the footer links /openapi.json).
      if (target === '/openapi.json') continue;
      if (!(await fileFor(target))) broken.push(`${urlOf(file)} → ${ref}`);
    }
  }
  assert.ok(checked > pages.length * 5, `links were checked (${checked})`);
  assert.deepEqual(broken, []);
});

test('each JSON twin is the API reply an anonymous caller gets for the same thing', async () => {
  const store = await ReleaseStore.open({ dataDir: release.dataDir, log: () => {} });
  try {
    const app = await createApp({ store, burst: false });
    const twins: [string, string][] = [
      ['/sources.json', '/v1/tenders/sources'],
      ['/index.json', '/v1/intelligence/summary'],
      ['/grants.json', '/v1/grants/summary'],
      ['/trades.json', '/v1/intelligence/trades'],
    ];
    for (const file of pages) {
      const state = /^states\/([a-z]+)\/index\.html$/.exec(file);
      if (state) twins.push([`/states/${state[1]}.json`, `/v1/intelligence/${state[1]}`]);
      const pair = /^trades\/([a-z-]+)\/([a-z]+)\/index\.html$/.exec(file);
      if (pair) twins.push([`/trades/${pair[1]}/${pair[2]}.json`, `/v1/intelligence/trades/${pair[1]}/${pair[2]}`]);
      const tender = /^tenders\/([^/]+)\/index\.html$/.exec(file);
      if (tender) twins.push([`/tenders/${tender[1]}.json`, `/v1/tenders/${tender[1]}`]);
      const buyer = /^buyers\/([^/]+)\/index\.html$/.exec(file);
      if (buyer) {
        const key = JSON.parse(await readFile((await fileFor(`/buyers/${buyer[1]}.json`))!, 'utf8')).buyer.buyer_key;
        twins.push([`/buyers/${buyer[1]}.json`, `/v1/awards/buyers/${key}`]);
      }
    }
    assert.ok(twins.length >= 4 + 10 + 1, `every data page's twin is compared (${twins.length})`);
    for (const [twin, api] of twins) {
      const file = await fileFor(twin);
      assert.ok(file, `${twin} exists`);
      const reply = await app.request(api);
      assert.equal(reply.status, 200, api);
      assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), await reply.json(), `${twin} equals GET ${api}`);
    }
  } finally {
    await store.close();
  }
});

test('the batched buyer details the site JSON is written from equal each buyer\'s own reply, for either audience', async () => {
  const store = await openStore(join(release.releaseDir, 'store.duckdb'), { readOnly: true });
  try {
    const ctx: IntelContext = { store, computedAt: release.manifest.computed_at, now: new Date(release.manifest.clock.now), registry: await readRegistry(store) };
    const keys = (await store.all<{ buyer_key: string }>('SELECT buyer_key FROM buyers ORDER BY buyer_key')).map((row) => row.buyer_key);
    assert.ok(keys.length >= 5, `the fixture night has buyers (${keys.length})`);
    for (const audience of [ANONYMOUS, { identified: true }]) {
      const batched = await buyerDetails(ctx, [...keys, 'au-000000000000'], audience);
      assert.deepEqual([...batched.keys()].sort(), keys, 'every known buyer, and no unknown one');
      let listed = 0;
      for (const key of keys) {
        const single = await buyerDetail(ctx, key, audience);
        // Byte for byte, key order included: a page's JSON twin is written from the batch.
        assert.equal(JSON.stringify(batched.get(key)), JSON.stringify(single), `${key} for ${audience.identified ? 'an identified' : 'an anonymous'} caller`);
        listed += single!.expiring.length + single!.planned.length + single!.recent_awards.length + single!.open_tenders.length;
      }
      assert.ok(listed > 0, 'some buyer has rows in its lists');
    }
  } finally {
    store.close();
  }
});

test('a site JSON file its collection\'s schema rejects fails the build, naming the file and the field', async () => {
  const broken = join(release.dataDir, 'broken-site-json');
  await cp(join(release.releaseDir, 'site-json'), broken, { recursive: true });
  const [stateFile] = (await readdir(join(broken, 'states'))).sort();
  assert.ok(stateFile, 'the fixture night has state pages');
  const state = JSON.parse(await readFile(join(broken, 'states', stateFile), 'utf8'));
  state.open_tenders = 'many';
  await writeFile(join(broken, 'states', stateFile), JSON.stringify(state));
  const built = buildSite({ siteJsonDir: broken, outDir: join(release.dataDir, 'broken-site') });
  await assert.rejects(built, (error: unknown) => {
    assert.ok(error instanceof SiteBuildError);
    assert.match(error.message, new RegExp(`states → ${stateFile.replace(/\.json$/, '')}\\*\\* data does not match the collection schema`));
    assert.match(error.message, /open_tenders/);
    return true;
  });
});

test('builds at once write the same site as one build: every file, byte for byte', async () => {
  // The nightly's build (one a core: one or two builds) against three at once, so that dealing the pages out in
  // turn is tried past two.
  const filesOf = async (dir: string) => (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile()).map((entry) => join(relative(dir, entry.parentPath), entry.name)).sort();
  const outDir = join(release.dataDir, 'site-in-three');
  const three = await buildSite({ siteJsonDir: join(release.releaseDir, 'site-json'), outDir, shards: 3 });
  assert.ok(release.site.built && three.pages === release.site.pages, 'as many pages');
  const files = await filesOf(release.siteDir);
  assert.ok(files.length > pages.length, 'pages, twins and assets were written');
  assert.deepEqual(await filesOf(outDir), files, 'the same files');
  const differing: string[] = [];
  for (const file of files) {
    const [a, b] = await Promise.all([readFile(join(release.siteDir, file)), readFile(join(outDir, file))]);
    if (!a.equals(b)) differing.push(file);
  }
  assert.deepEqual(differing, [], 'the same bytes');
  assert.deepEqual((await readdir(release.dataDir)).filter((name) => name.includes('.shard-')), [], 'no build\'s folder is left beside the site');
});

test('every page with figures says when they were computed and which sources they cover', async () => {
  const computedAt = release.manifest.computed_at;
  // Lists of links (states, buyers, a jurisdiction's tenders), the check, match, account, organisation and bid pages carry no figures of their own.
  const dataPages = pages.filter((f) => !['search/index.html', 'check/index.html', '404.html', 'states/index.html', 'definitions/index.html', 'match/index.html', 'account/index.html', 'account/sign-in/index.html', 'account/orgs/index.html', 'account/orgs/org/index.html', 'account/bids/index.html', 'account/bids/bid/index.html'].includes(f) && !/^buyers\/(in\/[^/]+\/)?index\.html$|^states\/[^/]+\/(tenders|closed)\//.test(f));
  assert.ok(dataPages.length >= 15);
  for (const file of dataPages) {
    const $ = await html(file);
    assert.equal($('.provenance time').attr('datetime'), computedAt, `${urlOf(file)} shows computed_at`);
    assert.match($('.provenance').text().replace(/\s+/g, ' '), /Figures of .+?, from (\d+ sources|[^;.]+?)[;.]|from no registered source/, `${urlOf(file)} names its sources`);
    const twin = $('link[rel="alternate"][type="application/json"]').attr('href');
    assert.ok(twin && (await fileFor(twin)), `${urlOf(file)} links its JSON twin`);
  }
});

/** What a reader sees or hears of a page: its text and the labels a screen reader reads, without scripts, styles and code (names shown as names). */
async function visibleText(file: string): Promise<string> {
  const $ = await html(file);
  $('script, style, code').remove();
  // Text node by text node, so that words of adjacent elements ("1" and "contracts") stay apart.
  const texts = $('body').find('*').contents().filter((_, node) => node.type === 'text').map((_, node) => $(node).text()).get();
  const labels = $('body [aria-label], body [title], body [placeholder], body [alt]').map((_, element) =>
    ['aria-label', 'title', 'placeholder', 'alt'].map((name) => $(element).attr(name) ?? '').join(' ')).get();
  return [...texts, ...labels].join(' ').replace(/\s+/g, ' ');
}

/** Each match of `pattern` in the site's visible text, as "page: match". */
async function findInSite(pattern: RegExp): Promise<string[]> {
  const found: string[] = [];
  for (const file of pages) {
    for (const match of (await visibleText(file)).matchAll(pattern)) found.push(`${urlOf(file)}: ${match[0]}`);
  }
  return found;
}

test('money, dates and counts read as people write them', async () => {
  assert.deepEqual(await findInSite(/\b[A-Z]{3} ?\d+\.\d{2}\b/g), [], 'no raw decimal amount with a currency code ("AUD 19800.00")');
  assert.deepEqual(await findInSite(/\$\d{4,}/g), [], 'no unformatted run of digits as money ("$1178000")');
  // A source's own spelling, quoted as published, may say "Sept"; the site's dates never do.
  assert.deepEqual(await findInSite(/(?<!")\bSept\b(?!")/g), [], 'September is "Sep"');
  assert.deepEqual(
    await findInSite(/(?<![\d,.])\b1 (?:[a-z-]+ )?(?:tenders|contracts|procurements|sources|rounds|buyers|suppliers|days|re-tenders)\b/g),
    [], 'one of a thing is singular ("1 procurement")',
  );
  const home = await visibleText('index.html');
  assert.match(home, /\$\d{1,3}(,\d{3})+/, 'the home page shows money as $1,234,567');
});

test('no internal names reach readers: no field names, codes, program values, raw dates, header names or quarter ids in visible text', async () => {
  const found: string[] = [];
  for (const file of pages) for (const word of rawWords(await visibleText(file))) found.push(`${urlOf(file)}: ${word}`);
  assert.deepEqual(found, [], 'every page in plain words (test/helpers/plain-words.ts)');
  assert.deepEqual(await findInSite(/\b\d{4}Q[1-4]\b/g), [], 'quarters read as months ("Jul–Sep 2026")');
  assert.deepEqual(await findInSite(/listing rule|\bBasis\b/g), [], 'no internal rule names');
  assert.deepEqual(await findInSite(/(?<![\d.])(?:\d{4,}\.\d{2}|0\.\d{2,})(?![\d.])/g), [], 'no raw amounts or fractions ("19800.00", "0.9333"); references such as 2026.29377 are names');
  assert.deepEqual(await findInSite(/\b(?:NULL|null|undefined|NaN|SELECT|WHERE|GROUP BY)\b/g), [], 'no SQL or program words');
  assert.deepEqual(await findInSite(/\b\d{4}-\d{2}-\d{2}\b/g), [], 'dates read as 25 Sep 2026, never 2026-09-25');
});

/** A chart's figures as drawn (columns and rows) and as its table holds them (the first figure column). */
function chartFigures($: cheerio.CheerioAPI, chart: ReturnType<cheerio.CheerioAPI>) {
  const bars = (drawing: string) => chart.find(`svg.${drawing} rect.bar`).map((_, r) => Number($(r).attr('data-value'))).get();
  const column = (n: number) => chart.find('table tbody tr').map((_, tr) => Number($(tr).find('td').eq(n).attr('data-sort'))).get();
  return { columns: bars('columns'), rows: bars('rows'), table: column(0), column, title: chart.find('svg.columns title').text(), caption: chart.find('table caption').text() };
}

test('each chart has its table, and its bars, its table and its JSON twin hold the same figures', async () => {
  const twinOf = async (path: string) => JSON.parse(await readFile((await fileFor(path))!, 'utf8'));
  const seen = new Map<string, number>();
  for (const file of pages) {
    const $ = await html(file);
    for (const element of $('figure.chart').toArray()) {
      const chart = $(element);
      const figures = chartFigures($, chart);
      assert.ok(figures.columns.length > 0, `${urlOf(file)} #${chart.attr('id')} draws bars`);
      assert.deepEqual(figures.rows, figures.columns, `${urlOf(file)} #${chart.attr('id')}: both drawings show the same figures`);
      assert.deepEqual(figures.table, figures.columns, `${urlOf(file)} #${chart.attr('id')}: its table holds its figures`);
      assert.equal(figures.caption, figures.title, 'the table is captioned as the chart is titled');
      assert.equal(chart.find('svg[role="img"] desc').length, 2, 'each drawing is described');
      const id = `${file.split('/')[0]}#${chart.attr('id')}`;
      seen.set(id, (seen.get(id) ?? 0) + 1);
    }
  }
  // The figures each chart draws are its page's JSON twin's series (home, state, buyer and trade pages).
  const $home = await html('index.html');
  assert.deepEqual(chartFigures($home, $home('#open-by-state')).columns, (await twinOf('/index.json')).by_jurisdiction.map((j: { open_now: number }) => j.open_now));
  for (const file of pages.filter((f) => /^(states|buyers|trades)\/.+\/index\.html$/.test(f) && !/\/(tenders|closed|in)\//.test(f))) {
    const $ = await html(file);
    const twin = await twinOf(urlOf(file).replace(/\/$/, '.json'));
    const months: { count: number; value: number }[] = file.startsWith('states/') ? twin.expiring.by_month : file.startsWith('buyers/') ? twin.expiring_by_month : twin.ending.by_month;
    if ($('#ending-by-month').length > 0) {
      const ending = chartFigures($, $('#ending-by-month'));
      assert.deepEqual(ending.columns, months.map((m) => m.count), `${urlOf(file)}: contracts ending per month as its twin has them`);
      assert.deepEqual(ending.column(1), months.map((m) => m.value), `${urlOf(file)}: their value as its twin has it`);
    } else {
      assert.ok(months.every((m) => m.count === 0), `${urlOf(file)} charts its contracts ending`);
    }
    if ($('#spend-by-year').length > 0) {
      const spend = chartFigures($, $('#spend-by-year'));
      assert.deepEqual(spend.columns, twin.spend_by_year.map((y: { value: number }) => y.value), `${urlOf(file)}: spend per year as its twin has it`);
      assert.deepEqual(spend.column(1), twin.spend_by_year.map((y: { count: number }) => y.count));
    } else if (file.startsWith('buyers/')) {
      assert.ok(twin.spend_by_year.every((y: { count: number }) => y.count === 0), `${urlOf(file)} charts its spend per year`);
    }
    if (file.startsWith('buyers/')) {
      // The years add up to the buyer's own figures over the same window.
      const years: { count: number; value: number }[] = twin.spend_by_year;
      assert.equal(years.reduce((sum, y) => sum + y.count, 0), twin.buyer.award_count, `${urlOf(file)}: contracts per year add up to its contracts`);
      assert.ok(Math.abs(years.reduce((sum, y) => sum + y.value, 0) - (twin.buyer.value_total ?? 0)) < 0.01 * (years.length + 1), `${urlOf(file)}: spend per year adds up to its total`);
    }
    if ($('#closing-by-week').length > 0) {
      const weeks = chartFigures($, $('#closing-by-week'));
      assert.ok(weeks.columns.reduce((a, b) => a + b, 0) <= twin.open_tenders, `${urlOf(file)}: no more tenders close in the weeks than are open`);
    }
  }
  // A buyer's charts appear only when it has contracts to draw (checked above); the browser test's synthetic site has them.
  for (const expected of ['index.html#open-by-state', 'states#closing-by-week', 'states#ending-by-month', 'trades#ending-by-month', 'grants#closing-by-month']) {
    assert.ok(seen.has(expected), `a ${expected} chart was built (built: ${[...seen.keys()].join(' ')})`);
  }
});

test('every table offering a CSV names rows its page\'s JSON twin holds, one per row of the table', async () => {
  let tables = 0;
  for (const file of pages.filter((f) => !f.startsWith('tenders/'))) {
    const $ = await html(file);
    const twinHref = $('link[rel="alternate"][type="application/json"]').attr('href');
    for (const element of $('table[data-csv]').toArray()) {
      assert.ok(twinHref, `${urlOf(file)} links the JSON twin its CSV comes from`);
      const twin = JSON.parse(await readFile((await fileFor(twinHref))!, 'utf8'));
      const path = $(element).attr('data-csv')!;
      assert.equal(rowsAt(twin, path).length, $(element).find('tbody tr').length, `${urlOf(file)} ${path}`);
      tables += 1;
    }
  }
  assert.ok(tables > 20, `tables offering CSV were checked (${tables})`);
});

test('every headline figure links its exact rule on the definitions page, which the data dictionary links', async () => {
  const $definitions = await html('definitions/index.html');
  let figures = 0;
  for (const file of pages) {
    const $ = await html(file);
    for (const figure of $('.figures li').toArray()) {
      figures += 1;
      const rule = $(figure).find('a.rule').attr('href') ?? '';
      const anchor = /^\/definitions\/#([a-z-]+)$/.exec(rule);
      assert.ok(anchor, `${urlOf(file)}: "${$(figure).text().trim()}" links its rule (${rule})`);
      assert.ok($definitions(`[id="${anchor[1]}"]`).text().trim(), `${urlOf(file)}: the rule ${anchor[1]} is defined`);
    }
  }
  assert.ok(figures >= 30, `the figures were checked (${figures})`);
  const dictionary = await readFile(join(import.meta.dirname, '..', 'data', 'README.md'), 'utf8');
  assert.match(dictionary, /\/definitions\//, 'data/README.md links the definitions page');
});

test('the coverage line counts only the sources read tonight and names the others with the reason', async () => {
  const { sources } = JSON.parse(await readFile((await fileFor('/sources.json'))!, 'utf8')) as { sources: { name: string; status: string; kinds: string[] }[] };
  const records = sources.filter((s) => s.kinds.some((kind) => ['tender', 'grant', 'award', 'plan'].includes(kind)));
  const read = records.filter((s) => s.status === 'ok' || s.status === 'empty');
  const unread = records.filter((s) => !read.includes(s));
  assert.ok(unread.some((s) => s.status === 'robots_refused') && unread.some((s) => s.status === 'login_walled'), 'the fixture night has sources it could not read');
  const $home = await html('index.html');
  const provenance = $home('.provenance').text().replace(/\s+/g, ' ');
  assert.match(provenance, new RegExp(`from ${read.length} sources; not read:`), 'registers and sanctions lists are no source of tenders, contracts or plans');
  const notRead = /not read: (.*?)\. Which/.exec(provenance)?.[1] ?? '';
  for (const source of unread) assert.ok(notRead.includes(source.name), `${source.name} (${source.status}) is named as not read`);
  for (const source of read) assert.ok(!notRead.includes(`${source.name} (`), `${source.name} was read`);
  assert.match(notRead, /needs a login/);
  assert.match(notRead, /refused by robots\.txt/);
  const details = $home('.provenance details').text();
  for (const source of read) assert.ok(details.includes(source.name), `${source.name} is named one click away`);
});

test('one set of numbers: each state page\'s coverage names the sources a search of that state covers, and the home and state figures are the search totals', async () => {
  const store = await ReleaseStore.open({ dataDir: release.dataDir, log: () => {} });
  try {
    const app = await createApp({ store, burst: false });
    const search = async (query: string) => (await (await app.request(`/v1/tenders?limit=1&${query}`)).json()) as { total: number; coverage: { sources_total: number; sources_empty: { source: string; status: string }[] } };
    const { sources } = JSON.parse(await readFile((await fileFor('/sources.json'))!, 'utf8')) as { sources: { id: string; name: string }[] };
    const nameOf = new Map(sources.map((s) => [s.id, s.name]));
    let compared = 0;
    for (const file of pages.filter((f) => /^states\/[a-z]+\/index\.html$/.test(f) && f !== 'states/index.html')) {
      const slug = file.split('/')[1]!;
      const twin = JSON.parse(await readFile((await fileFor(`/states/${slug}.json`))!, 'utf8')) as { jurisdiction: string; open_tenders: number };
      if (twin.jurisdiction === 'AU') continue; // the federal page lists federal tenders alone; a search of AU spans every state
      const reply = await search(`jurisdiction=${twin.jurisdiction}&kind=tender`);
      assert.equal(twin.open_tenders, reply.total, `${slug}: the open figure is the search's total`);
      const line = (await html(file))('.provenance').text().replace(/\s+/g, ' ');
      const tenderSources = (await search(`jurisdiction=${twin.jurisdiction}`)).coverage;
      const unread = tenderSources.sources_empty.filter((s) => s.status !== 'ok' && s.status !== 'empty').map((s) => s.source);
      for (const source of unread) assert.ok(line.includes(`${nameOf.get(source)} (`), `${slug}: ${source}, not read, is named as not read`);
      compared += 1;
    }
    assert.ok(compared >= 8, `state pages compared (${compared})`);
    const nsw = (await html('states/nsw/index.html'))('.provenance').text();
    for (const name of ['buy.nsw opportunities', 'VendorPanel public tenders', 'Tenderlink council tenders']) assert.ok(nsw.includes(name), `NSW covers ${name}`);
    const home = JSON.parse(await readFile((await fileFor('/index.json'))!, 'utf8')) as { countries: { country: string; open_now: number; grants_open: number }[] };
    const figure = async (label: string) => Number((await html('index.html'))(`.figures li:has(.label:contains("${label}")) .value`).first().text().replace(/,/g, ''));
    assert.equal(await figure('tenders open in Australia'), (await search('kind=tender')).total, 'home: open tenders in Australia = a search of tenders anywhere in Australia');
    assert.equal(await figure('tenders open in New Zealand'), (await search('kind=tender&jurisdiction=NZ')).total);
    assert.equal(await figure('grant rounds open in Australia'), (await search('kind=grant')).total);
    assert.equal(home.countries.find((c) => c.country === 'AU')!.open_now, (await search('kind=tender')).total);
  } finally {
    await store.close();
  }
});

test('practice notices and the fixtures\' test amount never reach a page', async () => {
  assert.deepEqual(await findInSite(/Practice ATM|DEMOTENDER/gi), [], 'no practice or demonstration notice is shown');
  // The definitions page writes $1,234,567 as its example of how money reads.
  assert.deepEqual((await findInSite(/\$1,234,567\b/g)).filter((hit) => !hit.startsWith('/definitions/')), [], 'the test figure left in fixtures is gone');
});

test('each page with its stylesheets stays within 100 KB', async () => {
  for (const file of pages) {
    const $ = await html(file);
    let bytes = (await stat(join(release.siteDir, file))).size;
    for (const href of $('link[rel="stylesheet"]').map((_, l) => $(l).attr('href')).get()) bytes += (await stat((await fileFor(href))!)).size;
    assert.ok(bytes <= 100 * 1024, `${urlOf(file)} is ${bytes} bytes with its CSS`);
  }
});

test('trade pages never show holder or supplier names, nor the re-tender calendar', async () => {
  const store = await openStore(join(release.releaseDir, 'store.duckdb'), { readOnly: true });
  try {
    const tradePages = pages.filter((f) => /^trades\/[^/]+\/[^/]+\/index\.html$/.test(f));
    assert.ok(tradePages.length > 0);
    for (const file of tradePages) {
      const [, trade, slug] = file.split('/');
      const twin = JSON.parse(await readFile((await fileFor(`/trades/${trade}/${slug}.json`))!, 'utf8'));
      assert.equal(twin.ending.calendar, undefined, 'no re-tender calendar');
      assert.equal(twin.concentration.holders, undefined, 'no holders');
      const suppliers = await store.all<{ supplier: string }>(
        `SELECT DISTINCT supplier FROM awards WHERE trade = ? AND jurisdiction = ? AND supplier IS NOT NULL AND length(supplier) > 3`,
        [trade!, twin.jurisdiction],
      );
      const text = (await html(file)).text();
      for (const { supplier } of suppliers) assert.ok(!text.includes(supplier), `${urlOf(file)} names the supplier ${supplier}`);
    }
  } finally {
    store.close();
  }
});

test('the server serves the release\'s site at / beside the API, API routes first', async () => {
  const store = await ReleaseStore.open({ dataDir: release.dataDir, log: () => {} });
  try {
    const app = await createApp({ store, burst: false, site: { dataDir: release.dataDir } });
    const home = await app.request('/');
    assert.equal(home.status, 200);
    assert.match(home.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await home.text(), /Government tenders in Australia and New Zealand/);
    const twin = await app.request('/sources.json');
    assert.equal(twin.status, 200);
    assert.match(twin.headers.get('content-type') ?? '', /application\/json/);
    const api = await app.request('/v1/tenders/sources');
    assert.equal(api.status, 200);
    assert.ok(api.headers.get('ratelimit-limit'), 'API replies keep their rate headers');
    const missingPage = await app.request('/states/atlantis/', { headers: { accept: 'text/html' } });
    assert.equal(missingPage.status, 404);
    assert.match(await missingPage.text(), /Page not found/);
    const missingApi = await app.request('/v1/nothing-here');
    assert.equal(missingApi.status, 404);
    assert.ok('detail' in (await missingApi.json()), 'an unknown API path still answers {detail}');
  } finally {
    await store.close();
  }
});

test('in Chromium at 390 and 1280 px, an open tender is two clicks from the home page: its state, then the tender', async (t) => {
  // The first jurisdiction of the home page's table with tenders open tonight.
  const home = JSON.parse(await readFile((await fileFor('/index.json'))!, 'utf8')) as { by_jurisdiction: { name: string; jurisdiction: string; open_now: number }[] };
  const state = home.by_jurisdiction.find((j) => j.open_now > 0);
  assert.ok(state, 'the fixture night has a jurisdiction with open tenders');
  const site = await browseRelease(release.dataDir, (message) => t.diagnostic(message));
  try {
    for (const width of [390, 1280]) {
      const { page, problems } = await site.openPage(width);
      await page.goto(`${site.server.url}/`);
      await page.getByRole('link', { name: state.name, exact: true }).click();
      await page.waitForURL((url) => /^\/states\/[a-z]+\/$/.test(url.pathname));
      const first = page.locator('main ol.results a[href^="/tenders/"]').first();
      const title = await first.textContent();
      await first.click();
      await page.waitForURL('**/tenders/*/');
      assert.equal(await page.locator('h1').textContent(), title, `${width} px: the tender followed is the one shown`);
      assert.match((await page.locator('main .lede').first().textContent())!, /^(Closes in [\d,]+ days?|Closes today|Open, no closing date published)/, `${width} px`);
      assert.deepEqual(problems, [], `${width} px`);
      await page.close();
    }
  } finally {
    await site.close();
  }
});

test('a failed site build keeps the release and the server shows the newest earlier site', async () => {
  // A second release of the same data whose site build fails.
  const failedId = `${release.manifest.release_id}-b`;
  const failedDir = join(releasesDir(release.dataDir), failedId);
  await cp(release.releaseDir, failedDir, { recursive: true, filter: (source) => !source.startsWith(release.siteDir) });
  await rm(join(failedDir, 'site'), { recursive: true, force: true });
  const outcome = await publishSite(failedDir, async () => {
    throw new SiteBuildError('site build failed (exit 1): astro exploded');
  });
  assert.deepEqual(outcome, { built: false, error: 'site build failed (exit 1): astro exploded' });
  assert.deepEqual(JSON.parse(await readFile(join(failedDir, 'site-build.json'), 'utf8')), outcome);
  await assert.rejects(stat(join(failedDir, 'site')), 'no half-built site is left in place');
  const manifest = Manifest.parse({ ...release.manifest, release_id: failedId });
  await writeFile(join(failedDir, 'manifest.json'), JSON.stringify(manifest));
  await pointCurrentAt(release.dataDir, manifest, new Date());

  const store = await ReleaseStore.open({ dataDir: release.dataDir, log: () => {} });
  try {
    const state = store.state();
    assert.ok(state.ready && state.release.id === failedId, 'the release without a site is served');
    const app = await createApp({ store, burst: false, site: { dataDir: release.dataDir } });
    const home = await app.request('/');
    assert.equal(home.status, 200, 'the earlier release\'s site is shown');
    assert.match(await home.text(), new RegExp(release.manifest.computed_at.replace(/[.]/g, '\\.')));
  } finally {
    await store.close();
  }
});

/** The release's tenders as GET /v1/tenders/{key} judges them: key, open or not, and the portal link held. */
async function releaseTenders(): Promise<{ key: string; open: boolean; url: string | null }[]> {
  const store = await ReleaseStore.open({ dataDir: release.dataDir, log: () => {} });
  try {
    const app = await createApp({ store, burst: false });
    const db = await openStore(join(release.releaseDir, 'store.duckdb'), { readOnly: true });
    try {
      const rows = await db.all<{ tender_key: string; url: string | null }>('SELECT tender_key, url FROM tenders ORDER BY tender_key');
      return await Promise.all(rows.map(async (row) => {
        const reply = (await (await app.request(`/v1/tenders/${row.tender_key}`)).json()) as { open: boolean };
        return { key: row.tender_key, open: reply.open, url: row.url };
      }));
    } finally {
      db.close();
    }
  } finally {
    await store.close();
  }
}

test('every tender the release holds has its page, open ones with a countdown, closed ones marked closed, none with the portal link', async () => {
  const tenders = await releaseTenders();
  const open = tenders.filter((t) => t.open);
  assert.ok(open.length >= 20 && tenders.length > open.length, `the fixture night has open and closed tenders (${open.length} of ${tenders.length})`);
  for (const tender of tenders) {
    const file = await fileFor(`/tenders/${tender.key}/`);
    assert.ok(file, `/tenders/${tender.key}/ was built`);
    const $ = cheerio.load(await readFile(file, 'utf8'));
    const lede = $('main .lede').first().text();
    if (tender.open) assert.match(lede, /^(Closes in [\d,]+ days?|Closes today|Open, no closing date published)/, `${tender.key} says when it closes`);
    else assert.match(lede, /^Closed\./, `${tender.key} is marked closed`);
    assert.match($('main').text(), /Sign in to open the original notice/);
    if (tender.url) assert.ok(!$.html().includes(tender.url), `${tender.key} does not show its portal link to an anonymous reader`);
  }
});

test('a crawl from the home page finds no broken internal link (JSON twins and stylesheets included) and reaches every buyer and tender page', async (t) => {
  // A page's HTML, '' for another file, null for nothing there: the crawl reads each address once (HTML twice).
  const crawl = await crawlSite('http://127.0.0.1:8787', async (path) => {
    const file = await fileFor(path);
    if (!file) return null;
    return file.endsWith('.html') ? readFile(file, 'utf8') : '';
  });
  assert.deepEqual(crawl.broken, [], 'links to nothing');
  // Issue 17 §6: no page past 200 KB of HTML (bench row (d) measures it at production scale).
  assert.ok(crawl.largest.bytes < 200 * 1024, `the largest page, ${crawl.largest.path}, is ${crawl.largest.bytes} bytes of HTML`);
  const sitemapped = await sitemapPaths((path) => readFile(join(release.siteDir, path), 'utf8'));
  const missing = [];
  for (const path of sitemapped) if (!(await fileFor(path))) missing.push(path);
  assert.deepEqual(missing, [], 'sitemap entries with no page');
  const urls = pages.map(urlOf);
  const buyers = urls.filter((u) => /^\/buyers\/[^/]+\/$/.test(u) && u !== '/buyers/in/');
  const tenders = urls.filter((u) => u.startsWith('/tenders/'));
  const twins = [...crawl.reached].filter((path) => path.endsWith('.json')).length;
  const unreached = urls.filter((u) => !crawl.reached.has(u));
  t.diagnostic(`largest page ${crawl.largest.path} (${(crawl.largest.bytes / 1024).toFixed(1)} KB of HTML); crawled ${crawl.pages} pages from /, following ${crawl.links} internal links to ${crawl.reached.size} addresses (${twins} JSON twins); reached ${buyers.length - buyers.filter((u) => !crawl.reached.has(u)).length} of ${buyers.length} buyer pages and ${tenders.length - tenders.filter((u) => !crawl.reached.has(u)).length} of ${tenders.length} tender pages; ${sitemapped.length} sitemap entries checked; pages no link reaches: ${unreached.join(' ') || 'none'}`);
  assert.ok(tenders.length >= 20, `the fixture night has tender pages (${tenders.length})`);
  assert.ok(twins >= tenders.length, `the JSON twins were followed (${twins})`);
  assert.deepEqual([...buyers, ...tenders].filter((u) => !crawl.reached.has(u)), [], 'buyer and tender pages no link reaches');
});

test('each open tender page lists the other open tenders of its trade and state closing soonest, up to five', async () => {
  type Twin = { page_key: string; title: string; trade?: string; jurisdiction: string; open: boolean; closing_date?: string };
  const twins: Twin[] = [];
  for (const file of pages.filter((f) => /^tenders\/[^/]+\/index\.html$/.test(f))) {
    twins.push(JSON.parse(await readFile((await fileFor(`${urlOf(file).replace(/\/$/, '')}.json`))!, 'utf8')) as Twin);
  }
  const soonestFirst = twins.filter((t) => t.open).sort((a, b) => (a.closing_date ?? '9999').localeCompare(b.closing_date ?? '9999') || a.title.localeCompare(b.title));
  let listed = 0;
  for (const tender of soonestFirst) {
    const expected = tender.trade ? soonestFirst.filter((t) => t.trade === tender.trade && t.jurisdiction === tender.jurisdiction && t.page_key !== tender.page_key).slice(0, 5).map((t) => `/tenders/${t.page_key}/`) : [];
    const $ = await html(`tenders/${tender.page_key}/index.html`);
    const heading = $('main h2').filter((_, h) => $(h).text().startsWith('Other open tenders'));
    assert.equal(heading.length, 1, `${tender.page_key} has the section`);
    const shown = heading.next('ol').find('.title a').map((_, a) => $(a).attr('href')).get();
    assert.deepEqual(shown, expected, `${tender.page_key}: similar open tenders`);
    listed += shown.length;
  }
  assert.ok(listed > 0, 'some tender page lists similar tenders');
});

test('the search index holds exactly the pages marked for it (trades and buyers by name), no tender page', async () => {
  const marked: string[] = [];
  for (const file of pages) if ((await readFile(join(release.siteDir, file), 'utf8')).includes('data-pagefind-body')) marked.push(file);
  assert.ok(marked.length > 0 && marked.every((f) => /^(trades|buyers)\//.test(f)), `trade and buyer pages are marked (${marked.join(' ')})`);
  const entry = JSON.parse(await readFile(join(release.siteDir, 'pagefind', 'pagefind-entry.json'), 'utf8')) as { languages: Record<string, { page_count: number }> };
  assert.equal(Object.values(entry.languages).reduce((sum, language) => sum + language.page_count, 0), marked.length);
});

test('sitemap.xml names every page built and robots.txt allows all and names the sitemap', async () => {
  const origin = 'http://127.0.0.1:8787';
  const listed = (await sitemapPaths((path) => readFile(join(release.siteDir, path), 'utf8'))).map((path) => `${origin}${path}`).sort();
  const built = pages.filter((f) => f !== '404.html').map((f) => `${origin}${urlOf(f)}`).sort();
  assert.deepEqual(listed, built);
  const robots = await readFile(join(release.siteDir, 'robots.txt'), 'utf8');
  assert.match(robots, /^User-agent: \*\nAllow: \/\n/);
  assert.match(robots, /\nSitemap: http:\/\/127\.0\.0\.1:8787\/sitemap\.xml\n$/);
});

test('every page names its canonical address and its Open Graph title and description', async () => {
  for (const file of pages.filter((f) => f !== '404.html')) {
    const $ = await html(file);
    const canonical = `http://127.0.0.1:8787${urlOf(file)}`;
    assert.equal($('link[rel="canonical"]').attr('href'), canonical, `${urlOf(file)} canonical`);
    assert.equal($('meta[property="og:url"]').attr('content'), canonical);
    assert.equal($('meta[property="og:title"]').attr('content'), $('head > title').text().replace(/ · Tender intelligence$/, ''));
    assert.equal($('meta[property="og:description"]').attr('content'), $('meta[name="description"]').attr('content'));
    assert.ok(($('meta[property="og:description"]').attr('content') ?? '').length > 20, `${urlOf(file)} has a description`);
  }
});

test('past the sitemap limit, sitemap.xml is an index of sitemaps that together name every page once', async () => {
  const site = join(release.dataDir, 'sitemap-site');
  await mkdir(site, { recursive: true });
  // The pages as the build hands them over, relative to its output folder (the 404 page is left out of a sitemap).
  await writeSitemap(site, ['404.html', 'a/b/index.html', 'a/index.html', 'c/index.html', 'd & e/index.html', 'index.html'], 'https://example.org', 2);
  const index = cheerio.load(await readFile(join(site, 'sitemap.xml'), 'utf8'), { xml: true });
  const parts = index('sitemapindex > sitemap > loc').map((_, loc) => index(loc).text()).get();
  assert.deepEqual(parts, ['https://example.org/sitemap-1.xml', 'https://example.org/sitemap-2.xml', 'https://example.org/sitemap-3.xml']);
  const named: string[] = [];
  for (const part of parts) {
    const $ = cheerio.load(await readFile(join(site, new URL(part).pathname), 'utf8'), { xml: true });
    named.push(...$('url > loc').map((_, loc) => $(loc).text()).get());
  }
  assert.deepEqual(named, ['https://example.org/', 'https://example.org/a/', 'https://example.org/a/b/', 'https://example.org/c/', 'https://example.org/d%20&%20e/']);
  assert.match(await readFile(join(site, 'sitemap-3.xml'), 'utf8'), /<loc>https:\/\/example\.org\/d%20&amp;%20e\/<\/loc>/);
});
