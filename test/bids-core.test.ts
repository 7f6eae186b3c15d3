import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import JSZip from 'jszip';
import sharp from 'sharp';
import { createService } from '../api/app.ts';
import { filePages } from '../api/bids/files.ts';
import { checkerAnalyses } from '../api/checkers/registry.ts';
import { createAnalysisPool, type AnalysisPool } from '../api/checkers/_runner/pool.ts';
import { jsonRequest, PUBLIC_URL, signInAs } from './helpers/org-app.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { startBidApp, TENDER, TENDER_KEY, type BidTestApp } from './helpers/bid-app.ts';
import { encryptedBombPdf, flateBombPdf, zipBombDocx, zipSlipDocx } from './helpers/hostile-files.ts';
import { openTestState } from './helpers/state.ts';

interface BidReply {
  bid_id: string;
  org_id: string;
  title: string;
  tender_key: string | null;
  stage: string;
  next_stages: string[];
  owner: { account_id: string; email: string } | null;
  due_date: string | null;
  goal: string | null;
  closing_date: string | null;
  closing_at: string | null;
  buyer_time_zone: string | null;
  buyer: string | null;
}

interface BidFileReply {
  file_id: string;
  filename: string;
  kind: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  page_count: number;
  pages_read: number;
  read_status: string;
  uploaded_by: string;
}

interface PageReply {
  n: number;
  page_count: number;
  text: string;
  source: string;
  image_url: string | null;
}

describe('bids: create, list, read, change', () => {
  let t: BidTestApp;
  let owner: string;
  let member: string;
  let viewer: string;
  let outsider: string;
  let orgId: string;
  let otherOrgId: string;

  before(async () => {
    t = await startBidApp();
    owner = await t.signIn('owner@harbour.test');
    member = await t.signIn('member@harbour.test');
    viewer = await t.signIn('viewer@harbour.test');
    outsider = await t.signIn('outsider@elsewhere.test');
    const created = await t.app.request('/v1/orgs', jsonRequest('POST', { company_name: 'Harbour Civil Pty Ltd' }, owner));
    orgId = ((await created.json()) as { org_id: string }).org_id;
    await t.join(orgId, 'member@harbour.test', 'member');
    await t.join(orgId, 'viewer@harbour.test', 'viewer');
    const other = await t.app.request('/v1/orgs', jsonRequest('POST', { company_name: 'Elsewhere Pty Ltd' }, outsider));
    otherOrgId = ((await other.json()) as { org_id: string }).org_id;
  });
  after(() => t.close());

  const post = (body: unknown, cookie: string) => t.app.request('/v1/bids', jsonRequest('POST', body, cookie));
  const patch = (bidId: string, body: unknown, cookie: string) => t.app.request(`/v1/bids/${bidId}`, jsonRequest('PATCH', body, cookie));
  const get = (path: string, cookie?: string) => t.app.request(path, cookie ? { headers: { cookie } } : {});
  const newBid = async (body: Record<string, unknown> = { title: 'Free-title bid' }, cookie = member): Promise<BidReply> => {
    const response = await post({ org_id: orgId, ...body }, cookie);
    assert.equal(response.status, 201, await response.clone().text());
    return (await response.json()) as BidReply;
  };

  it('a bid for a tender records its title, buyer, closing date and the buyer time zone, and starts qualifying', async () => {
    const bid = await newBid({ page_key: TENDER_KEY, due_date: '2026-06-28', goal: 'Win the Hunter lot' });
    assert.match(bid.bid_id, /^bid_[0-9a-f]{16}$/);
    assert.deepEqual(
      { title: bid.title, tender_key: bid.tender_key, buyer: bid.buyer, closing_date: bid.closing_date, closing_at: bid.closing_at, tz: bid.buyer_time_zone },
      { title: TENDER.title, tender_key: TENDER_KEY, buyer: 'Transport for NSW', closing_date: '2026-07-01', closing_at: '2026-07-01T04:00:00.000Z', tz: 'Australia/Sydney' },
    );
    assert.equal(bid.stage, 'qualifying');
    assert.deepEqual(bid.next_stages, ['preparing', 'withdrawn']);
    assert.equal(bid.owner?.email, 'member@harbour.test', 'the creator owns a new bid');
    assert.equal(bid.due_date, '2026-06-28');
    assert.equal(bid.goal, 'Win the Hunter lot');
  });

  it('a free-title bid has no tender fields; a title given with a page_key replaces the tender title', async () => {
    const free = await newBid({ title: 'Council fleet servicing' });
    assert.deepEqual([free.title, free.tender_key, free.closing_date, free.buyer_time_zone], ['Council fleet servicing', null, null, null]);
    const renamed = await newBid({ page_key: TENDER_KEY, title: 'Hunter resurfacing (our lot)' });
    assert.deepEqual([renamed.title, renamed.tender_key], ['Hunter resurfacing (our lot)', TENDER_KEY]);
  });

  it('refuses an unknown page_key (404), neither key nor title (400), an unknown field (400) and another org (404)', async () => {
    const unknown = await post({ org_id: orgId, page_key: 'ffffffffffffffffffffffffffffffff' }, member);
    assert.equal(unknown.status, 404);
    assert.match(((await unknown.json()) as { detail: string }).detail, /No tender has the page_key ffff/);
    const neither = await post({ org_id: orgId }, member);
    assert.equal(neither.status, 400);
    assert.match(((await neither.json()) as { detail: string }).detail, /page_key .*or title/);
    const extra = await post({ org_id: orgId, title: 'x', colour: 'blue' }, member);
    assert.equal(extra.status, 400);
    assert.match(((await extra.json()) as { detail: string }).detail, /colour|takes only/);
    const foreign = await post({ org_id: otherOrgId, title: 'Not mine' }, member);
    assert.equal(foreign.status, 404);
  });

  it('a viewer may not create a bid (403); signed out is 401', async () => {
    const refused = await post({ org_id: orgId, title: 'Viewer bid' }, viewer);
    assert.equal(refused.status, 403);
    assert.match(((await refused.json()) as { detail: string }).detail, /viewer.*owner, admin, member/);
    const anonymous = await t.app.request('/v1/bids', jsonRequest('POST', { org_id: orgId, title: 'x' }));
    assert.equal(anonymous.status, 401);
    assert.equal((await get('/v1/bids')).status, 401);
  });

  it('lists only the bids of the caller organisations, newest first, and filters by org_id', async () => {
    t.clock.advance(1000);
    const latest = await newBid({ title: 'Newest bid' });
    const outsiderBid = await post({ org_id: otherOrgId, title: 'Elsewhere bid' }, outsider);
    assert.equal(outsiderBid.status, 201);
    const listed = (await (await get('/v1/bids', viewer)).json()) as { bids: BidReply[] };
    assert.equal(listed.bids[0]!.bid_id, latest.bid_id);
    assert.ok(listed.bids.every((bid) => bid.org_id === orgId), 'no bid of another organisation');
    const filtered = (await (await get(`/v1/bids?org_id=${orgId}`, owner)).json()) as { bids: BidReply[] };
    assert.deepEqual(filtered.bids.map((bid) => bid.bid_id), listed.bids.map((bid) => bid.bid_id));
    assert.equal((await get(`/v1/bids?org_id=${otherOrgId}`, owner)).status, 404);
  });

  it('reads a bid for every member role; a non-member gets the same 404 as a missing bid', async () => {
    const bid = await newBid();
    for (const cookie of [owner, member, viewer]) assert.equal((await get(`/v1/bids/${bid.bid_id}`, cookie)).status, 200);
    const hidden = await get(`/v1/bids/${bid.bid_id}`, outsider);
    const missing = await get('/v1/bids/bid_0000000000000000', outsider);
    assert.equal(hidden.status, 404);
    assert.equal(missing.status, 404);
    assert.deepEqual(await hidden.json(), await missing.json());
    assert.equal((await patch(bid.bid_id, { goal: 'x' }, outsider)).status, 404);
  });

  it('PATCH changes stage, goal, owner and due date; null clears; the viewer gets 403', async () => {
    const bid = await newBid();
    const response = await patch(bid.bid_id, { stage: 'preparing', goal: 'Price sharply', owner: 'OWNER@harbour.test', due_date: '2026-06-25' }, member);
    assert.equal(response.status, 200);
    const changed = (await response.json()) as BidReply;
    assert.deepEqual(
      [changed.stage, changed.goal, changed.owner?.email, changed.due_date, changed.next_stages],
      ['preparing', 'Price sharply', 'owner@harbour.test', '2026-06-25', ['reviewing', 'qualifying', 'withdrawn']],
    );
    const cleared = (await (await patch(bid.bid_id, { goal: null, owner: null, due_date: null }, owner)).json()) as BidReply;
    assert.deepEqual([cleared.stage, cleared.goal, cleared.owner, cleared.due_date], ['preparing', null, null, null]);
    const refused = await patch(bid.bid_id, { goal: 'viewer edit' }, viewer);
    assert.equal(refused.status, 403);
    assert.match(((await refused.json()) as { detail: string }).detail, /viewer/);
  });

  it('PATCH refuses an unknown field, an unknown stage and an owner who is not a member (400)', async () => {
    const bid = await newBid();
    const unknown = await patch(bid.bid_id, { stage: 'preparing', priority: 'high' }, member);
    assert.equal(unknown.status, 400);
    assert.match(((await unknown.json()) as { detail: string }).detail, /takes only stage, goal, owner, due_date/);
    assert.equal((await patch(bid.bid_id, { stage: 'drafting' }, member)).status, 400);
    const stranger = await patch(bid.bid_id, { owner: 'outsider@elsewhere.test' }, member);
    assert.equal(stranger.status, 400);
    assert.match(((await stranger.json()) as { detail: string }).detail, /not a member/);
    assert.equal(((await (await get(`/v1/bids/${bid.bid_id}`, member)).json()) as BidReply).stage, 'qualifying', 'nothing changed');
  });

  it('a bad input answers 400 before a hidden bid answers 404 or a viewer 403', async () => {
    const bid = await newBid();
    const hidden = await patch(bid.bid_id, { stage: 'drafting' }, outsider);
    assert.equal(hidden.status, 400, 'the body is judged before the bid is opened');
    assert.equal((await patch(bid.bid_id, { stage: 'drafting' }, viewer)).status, 400);
    assert.equal((await get(`/v1/bids/${bid.bid_id}?include=everything`, outsider)).status, 400);
    assert.equal((await patch(bid.bid_id, { stage: 'preparing' }, outsider)).status, 404);
    assert.equal((await patch(bid.bid_id, { stage: 'preparing' }, viewer)).status, 403);
  });

  it('a bad stage move is 409 with the reason; final stages stay final', async () => {
    const bid = await newBid();
    const skip = await patch(bid.bid_id, { stage: 'submitted' }, member);
    assert.equal(skip.status, 409);
    assert.equal(((await skip.json()) as { detail: string }).detail, 'A bid in the stage qualifying may move only to preparing or withdrawn, not to submitted.');
    for (const stage of ['preparing', 'reviewing', 'submitted', 'won']) assert.equal((await patch(bid.bid_id, { stage }, member)).status, 200, stage);
    const reopen = await patch(bid.bid_id, { stage: 'preparing' }, member);
    assert.equal(reopen.status, 409);
    assert.match(((await reopen.json()) as { detail: string }).detail, /won, a final stage/);
  });
});

describe('bid files, thread and chat', () => {
  const realPdf = readFileSync(fileURLToPath(new URL('../fixtures/documents/real/pypdf-crazyones.pdf', import.meta.url)));
  const realDocx = readFileSync(fileURLToPath(new URL('../fixtures/documents/extraction/reading/tables.docx', import.meta.url)));
  const realJpeg = readFileSync(fileURLToPath(new URL('../fixtures/documents/real-images/exifr-issue-node-exif-58.jpg', import.meta.url)));
  const noticeText = 'Request for Tender TFNSW-2026-114\n\n1. The tenderer must hold public liability insurance of $20 million.\n';
  let t: BidTestApp;
  let pool: AnalysisPool;
  let analysesRun: string[];
  let owner: string;
  let member: string;
  let viewer: string;
  let outsider: string;
  let bidId: string;
  let otherBidId: string;
  const fileRead: [string, string][] = [];

  before(async () => {
    const real = createAnalysisPool({ analyses: { read_text: checkerAnalyses['read_text']!, render_page: checkerAnalyses['render_page']! }, size: 1 });
    analysesRun = [];
    // The real pool, recording which analyses it is asked to run.
    pool = { ...real, run: (request) => (analysesRun.push(request.analysis), real.run(request)), close: () => real.close() };
    t = await startBidApp({ pool, onFileRead: [(bid, file) => void fileRead.push([bid, file])] });
    owner = await t.signIn('owner@harbour.test');
    member = await t.signIn('member@harbour.test');
    viewer = await t.signIn('viewer@harbour.test');
    outsider = await t.signIn('outsider@elsewhere.test');
    const created = await t.app.request('/v1/orgs', jsonRequest('POST', { company_name: 'Harbour Civil Pty Ltd' }, owner));
    const orgId = ((await created.json()) as { org_id: string }).org_id;
    await t.join(orgId, 'member@harbour.test', 'member');
    await t.join(orgId, 'viewer@harbour.test', 'viewer');
    const bid = async () => ((await (await t.app.request('/v1/bids', jsonRequest('POST', { org_id: orgId, page_key: TENDER_KEY }, owner))).json()) as BidReply).bid_id;
    bidId = await bid();
    otherBidId = await bid();
  });
  after(async () => {
    await t.close();
    await pool.close();
  });

  const upload = (bid: string, cookie: string | undefined, bytes: Uint8Array<ArrayBuffer>, filename: string, type = 'application/octet-stream') => {
    const form = new FormData();
    form.set('file', new File([bytes], filename, { type }));
    return t.app.request(`/v1/bids/${bid}/files`, { method: 'POST', body: form, headers: cookie ? { cookie } : {} });
  };
  const get = (path: string, cookie?: string) => t.app.request(path, cookie ? { headers: { cookie } } : {});
  const detail = async (response: Response) => ((await response.json()) as { detail: string }).detail;
  const storedBlobs = () => readdirSync(t.bidFilesDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile() && !entry.parentPath.includes('renders'));
  let pdfFile: BidFileReply;

  it('uploads a real PDF: read once into pages, stored under its SHA-256, told to the listeners', async () => {
    const response = await upload(bidId, member, realPdf, 'Crazy Ones.pdf', 'application/pdf');
    assert.equal(response.status, 201, await response.clone().text());
    pdfFile = (await response.json()) as BidFileReply;
    const sha256 = createHash('sha256').update(realPdf).digest('hex');
    assert.deepEqual(
      { kind: pdfFile.kind, type: pdfFile.content_type, size: pdfFile.size_bytes, sha256: pdfFile.sha256, pages: pdfFile.page_count, read: pdfFile.pages_read, status: pdfFile.read_status, by: pdfFile.uploaded_by, name: pdfFile.filename },
      { kind: 'pdf', type: 'application/pdf', size: realPdf.byteLength, sha256, pages: 1, read: 1, status: 'read', by: 'member@harbour.test', name: 'Crazy Ones.pdf' },
    );
    assert.deepEqual(readFileSync(join(t.bidFilesDir, sha256.slice(0, 2), sha256)), realPdf);
    assert.deepEqual(analysesRun, ['read_text']);
    assert.deepEqual(fileRead, [[bidId, pdfFile.file_id]]);
    const pages = await filePages(t.state, bidId);
    assert.equal(pages.length, 1);
    assert.equal(pages[0]!.file_id, pdfFile.file_id);
    assert.match(pages[0]!.pages[0]!.text, /^The Crazy Ones\nOctober 14, 1998/);
  });

  it('the same bytes uploaded to another bid are stored once and not read again', async () => {
    const response = await upload(otherBidId, owner, realPdf, 'copy.pdf');
    assert.equal(response.status, 201);
    const copy = (await response.json()) as BidFileReply;
    assert.notEqual(copy.file_id, pdfFile.file_id);
    assert.equal(copy.pages_read, 1);
    assert.deepEqual(analysesRun, ['read_text'], 'the pages of the first upload were reused');
    assert.equal(storedBlobs().length, 1);
    assert.match((await filePages(t.state, otherBidId))[0]!.pages[0]!.text, /^The Crazy Ones/);
  });

  it('uploads a .docx and a text file as one page each', async () => {
    const docx = (await (await upload(bidId, member, realDocx, 'tables.docx')).json()) as BidFileReply;
    assert.deepEqual([docx.kind, docx.page_count, docx.read_status], ['docx', 1, 'read']);
    const text = (await (await upload(bidId, member, new TextEncoder().encode(noticeText), 'notice.txt')).json()) as BidFileReply;
    assert.deepEqual([text.kind, text.content_type, text.page_count], ['text', 'text/plain', 1]);
    const page = (await (await get(`/v1/bids/${bidId}/files/${docx.file_id}/pages/1`, viewer)).json()) as PageReply;
    assert.match(page.text, /Top left/);
    assert.equal(page.image_url, null, 'a .docx has no fixed pages to draw');
    const image = await get(`/v1/bids/${bidId}/files/${docx.file_id}/pages/1/image`, viewer);
    assert.equal(image.status, 404);
    assert.match(await detail(image), /Word document, which has no fixed pages to draw/);
    const listed = (await (await get(`/v1/bids/${bidId}/files`, viewer)).json()) as { files: BidFileReply[] };
    assert.deepEqual(listed.files.map((file) => file.filename), ['Crazy Ones.pdf', 'tables.docx', 'notice.txt']);
    assert.deepEqual(fileRead.map(([bid]) => bid), [bidId, otherBidId, bidId, bidId]);
  });

  it('uploads an image as one page read by OCR, drawn upright as PNG', async () => {
    const response = await upload(bidId, member, realJpeg, 'site-photo.jpg');
    assert.equal(response.status, 201, await response.clone().text());
    const image = (await response.json()) as BidFileReply;
    assert.deepEqual([image.kind, image.content_type, image.page_count, image.read_status], ['image', 'image/jpeg', 1, 'read']);
    const page = (await (await get(`/v1/bids/${bidId}/files/${image.file_id}/pages/1`, viewer)).json()) as PageReply;
    assert.equal(page.source, 'ocr');
    const drawn = await get(page.image_url!.slice(PUBLIC_URL.length), viewer);
    assert.equal(drawn.status, 200);
    const [photo, png] = await Promise.all([sharp(realJpeg).rotate().metadata(), sharp(Buffer.from(await drawn.arrayBuffer())).metadata()]);
    assert.deepEqual([png.format, png.width, png.height], ['png', photo.autoOrient?.width ?? photo.width, photo.autoOrient?.height ?? photo.height]);
  });

  it('keeps a PDF whose text cannot be read, says why, and leaves it out of the pages others read', async () => {
    const encrypted = readFileSync(fileURLToPath(new URL('../fixtures/documents/real/pypdf-encrypted-file.pdf', import.meta.url)));
    const heard = fileRead.length;
    const response = await upload(bidId, member, encrypted, 'locked.pdf');
    assert.equal(response.status, 201);
    const locked = (await response.json()) as BidFileReply & { read_detail: string };
    assert.deepEqual([locked.kind, locked.read_status, locked.pages_read], ['pdf', 'failed', 0]);
    assert.match(locked.read_detail, /^The file is kept, but its text could not be read: The analysis failed: .*password/i);
    const page = await get(`/v1/bids/${bidId}/files/${locked.file_id}/pages/1`, viewer);
    assert.equal(page.status, 404);
    assert.match(await detail(page), /^locked\.pdf has no pages to show: The file is kept/);
    assert.ok(!(await filePages(t.state, bidId)).some((file) => file.file_id === locked.file_id));
    assert.equal(fileRead.length, heard, 'listeners hear only of files whose pages were stored');
  });

  it('judges the type from the content: a JPEG named .pdf and a ZIP are refused, nothing stored', async () => {
    const before = storedBlobs().length;
    const renamed = await upload(bidId, member, realJpeg, 'tender.pdf', 'application/pdf');
    assert.equal(renamed.status, 400);
    assert.equal(await detail(renamed), 'tender.pdf is named as a PDF (.pdf) but its content is an image; check you chose the right file, or rename it to match what it is.');
    const zip = new JSZip();
    zip.file('readme.txt', 'not a tender');
    const archive = await upload(bidId, member, new Uint8Array(await zip.generateAsync({ type: 'uint8array' })), 'tender.pdf');
    assert.equal(archive.status, 400);
    assert.match(await detail(archive), /received a ZIP archive; bid files accept PDF, Word \(\.docx\), plain text, PNG, JPEG, WebP, BMP or TIFF/);
    assert.equal(storedBlobs().length, before);
  });

  it('refuses a decompression bomb, a .docx that climbs out of its archive and one past the memory ceiling, storing nothing', async () => {
    const before = storedBlobs().length;
    const refusals: [Uint8Array<ArrayBuffer>, string, number, RegExp][] = [
      [flateBombPdf(4096) as Uint8Array<ArrayBuffer>, 'tender.pdf', 422, /^The PDF was not read: a stream at byte \d+ decompresses past 48 MB.* Nothing was stored\.$/],
      [zipBombDocx(1024) as Uint8Array<ArrayBuffer>, 'response.docx', 422, /^The document was not read: its entry word\/media\/blank\.bin inflates \d+-fold/],
      [zipSlipDocx() as Uint8Array<ArrayBuffer>, 'response.docx', 400, /^The document was not read: .*(relative path|\.\.)/],
      [encryptedBombPdf(1024) as Uint8Array<ArrayBuffer>, 'statement.pdf', 422, /^The file was not kept: The analysis needed more than the \d+ MB of memory a document may use/],
    ];
    for (const [bytes, filename, status, reason] of refusals) {
      const response = await upload(bidId, member, bytes, filename);
      assert.equal(response.status, status, `${filename}: ${await response.clone().text()}`);
      assert.match(await detail(response), reason);
    }
    assert.equal(storedBlobs().length, before);
    const listed = (await (await get(`/v1/bids/${bidId}/files`, member)).json()) as { files: BidFileReply[] };
    assert.ok(!listed.files.some((file) => ['tender.pdf', 'response.docx', 'statement.pdf'].includes(file.filename)));
  });

  it('refuses a file over 25 MB with 413, a larger body while it streams in, and stores nothing', async () => {
    const before = storedBlobs().length;
    const justOver = await upload(bidId, member, new Uint8Array(25 * 1024 * 1024 + 1).fill(0x41), 'huge.txt');
    assert.equal(justOver.status, 413);
    assert.match(await detail(justOver), /huge\.txt\) is 25\.0 MB; documents are limited to 25 MB/);
    const farOver = await upload(bidId, member, new Uint8Array(26 * 1024 * 1024).fill(0x41), 'huger.txt');
    assert.equal(farOver.status, 413);
    assert.equal(await detail(farOver), 'The file is larger than 25 MB, the most a bid file may be; upload a smaller file or split it.');
    assert.equal(storedBlobs().length, before);
  });

  it('a viewer may not upload (403), a non-member gets 404 and signed out 401', async () => {
    assert.equal((await upload(bidId, viewer, realPdf, 'x.pdf')).status, 403);
    assert.equal((await upload(bidId, outsider, realPdf, 'x.pdf')).status, 404);
    assert.equal((await upload(bidId, undefined, realPdf, 'x.pdf')).status, 401);
    assert.equal((await get(`/v1/bids/${bidId}/files`, outsider)).status, 404);
    assert.equal((await get(`/v1/bids/${bidId}/files/${pdfFile.file_id}/url`, outsider)).status, 404);
    assert.equal((await get(`/v1/bids/${otherBidId}/files/${pdfFile.file_id}/pages/1`, owner)).status, 404, 'a file of another bid');
  });

  it('a signed link serves the bytes without cookies until it expires; an altered link is refused', async () => {
    const response = await get(`/v1/bids/${bidId}/files/${pdfFile.file_id}/url`, viewer);
    assert.equal(response.status, 200);
    const link = (await response.json()) as { url: string; expires_at: string; expires_in_seconds: number };
    assert.equal(link.expires_in_seconds, 900);
    assert.equal(link.expires_at, new Date(t.clock.now().getTime() + 900_000).toISOString());
    assert.ok(link.url.startsWith(`${PUBLIC_URL}/v1/bid-files/${pdfFile.file_id}?expires=`), link.url);
    const path = link.url.slice(PUBLIC_URL.length);
    const served = await t.app.request(path);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'application/pdf');
    assert.match(served.headers.get('content-disposition')!, /attachment; filename\*=UTF-8''Crazy%20Ones\.pdf/);
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), realPdf);

    const url = new URL(link.url);
    const signature = url.searchParams.get('signature')!;
    const altered = [
      path.replace(/signature=[^&]+/, `signature=${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`),
      path.replace(/expires=(\d+)/, (_, expires: string) => `expires=${Number(expires) + 3600}`),
      path.replace(pdfFile.file_id, 'file_0000000000000000'),
      path.replace(/&signature=[^&]+/, ''),
    ];
    for (const attempt of altered.slice(0, 3)) {
      const refused = await t.app.request(attempt);
      assert.equal(refused.status, 403, attempt);
      assert.match(await detail(refused), /not valid: it was altered/);
    }
    assert.equal((await t.app.request(altered[3]!)).status, 400, 'a link without its signature');

    t.clock.advance(900_000);
    const expired = await t.app.request(path);
    assert.equal(expired.status, 403);
    assert.equal(await detail(expired), `This file link expired at ${link.expires_at}; ask for a new one with GET /v1/bids/{bid}/files/{file_id}/url (links last 15 minutes).`);
  });

  it('a page gives its text and a PNG drawn on first request and kept; out of range is 404', async () => {
    const response = await get(`/v1/bids/${bidId}/files/${pdfFile.file_id}/pages/1`, viewer);
    assert.equal(response.status, 200);
    const page = (await response.json()) as PageReply;
    assert.match(page.text, /^The Crazy Ones\n/);
    assert.deepEqual([page.n, page.page_count, page.source], [1, 1, 'text_layer']);
    assert.equal(page.image_url, `${PUBLIC_URL}/v1/bids/${bidId}/files/${pdfFile.file_id}/pages/1/image`);
    const runsBefore = analysesRun.length;
    const image = await get(page.image_url!.slice(PUBLIC_URL.length), viewer);
    assert.equal(image.status, 200, await image.clone().text());
    assert.equal(image.headers.get('content-type'), 'image/png');
    const png = Buffer.from(await image.arrayBuffer());
    const { width, height, format } = await sharp(png).metadata();
    assert.deepEqual([format, width, height], ['png', 918, 1188], 'US Letter at 1.5 pixels per point');
    assert.deepEqual(analysesRun.slice(runsBefore), ['render_page']);
    const again = await get(page.image_url!.slice(PUBLIC_URL.length), viewer);
    assert.deepEqual(Buffer.from(await again.arrayBuffer()), png);
    assert.equal(analysesRun.length, runsBefore + 1, 'the kept render was served');

    const beyond = await get(`/v1/bids/${bidId}/files/${pdfFile.file_id}/pages/2`, viewer);
    assert.equal(beyond.status, 404);
    assert.equal(await detail(beyond), 'Crazy Ones.pdf has 1 page, so there is no page 2.');
    assert.equal((await get(`/v1/bids/${bidId}/files/${pdfFile.file_id}/pages/2/image`, viewer)).status, 404);
    assert.equal((await get(`/v1/bids/${bidId}/files/${pdfFile.file_id}/pages/0`, viewer)).status, 400);
    assert.equal((await get(`/v1/bids/${bidId}/files/${pdfFile.file_id}/pages/one`, viewer)).status, 400);
  });

  it('the thread takes messages from members, oldest first, with author and time; viewers read it', async () => {
    const post = (body: unknown, cookie: string) => t.app.request(`/v1/bids/${bidId}/thread`, jsonRequest('POST', body, cookie));
    const first = await post({ text: '  Insurance certificate is in the library.  ' }, member);
    assert.equal(first.status, 201);
    const message = (await first.json()) as { message_id: string; author: { email: string }; text: string; created_at: string };
    assert.deepEqual([message.author.email, message.text, message.created_at], ['member@harbour.test', 'Insurance certificate is in the library.', t.clock.now().toISOString()]);
    t.clock.advance(60_000);
    assert.equal((await post({ text: 'Thanks, pricing next.' }, owner)).status, 201);
    assert.equal((await post({ text: 'viewer note' }, viewer)).status, 403);
    assert.equal((await post({ text: '   ' }, member)).status, 400);
    const tooLong = await post({ text: 'x'.repeat(4001) }, member);
    assert.equal(tooLong.status, 400);
    assert.match(await detail(tooLong), /at most 4000 characters/);
    assert.equal((await post({ text: 'hi', pinned: true }, member)).status, 400);
    const thread = (await (await get(`/v1/bids/${bidId}/thread`, viewer)).json()) as { messages: { author: { email: string }; text: string }[] };
    assert.deepEqual(thread.messages.map((entry) => [entry.author.email, entry.text]), [
      ['member@harbour.test', 'Insurance certificate is in the library.'],
      ['owner@harbour.test', 'Thanks, pricing next.'],
    ]);
    assert.equal((await get(`/v1/bids/${bidId}/thread`, outsider)).status, 404);
  });

  it('chat gives stage, goal, no jobs, what is running and a recap of files, dates, work and thread', async () => {
    const response = await get(`/v1/bids/${bidId}/chat`, viewer);
    assert.equal(response.status, 200);
    const chat = (await response.json()) as { stage: string; jobs: unknown[]; running: string; recap: Record<string, unknown> };
    assert.equal(chat.stage, 'qualifying');
    assert.deepEqual(chat.jobs, []);
    assert.match(chat.running, /^Nothing is running for this bid/);
    const { summary, ...counts } = chat.recap;
    assert.deepEqual(counts, {
      files: 5,
      unreadable_files: 1,
      pages_read: 4,
      thread_messages: 2,
      last_message: { author: 'owner@harbour.test', created_at: t.clock.now().toISOString() },
      requirements: 0,
      mandatory_requirements: 0,
      mandatory_without_draft: 0,
      drafts_by_people: 0,
      open_gaps: 0,
      plan_tasks: 0,
      days_to_close: 21,
    });
    assert.match(String(summary), /closes on 2026-07-01 \(Australia\/Sydney\), 21 days from today\. .*5 files uploaded, 4 pages of text read; 1 file could not be read\./);
  });
});

describe('the bid routes in the whole app', () => {
  it('answer behind the app access steps, and every one is in /openapi.json', async () => {
    const now = () => new Date('2026-06-10T02:00:00.000Z');
    const state = await openTestState();
    const service = await createService({
      store: { state: () => ({ ready: false, detail: 'No release in this test.' }), now },
      state,
      now,
      publicUrl: PUBLIC_URL,
      burst: false,
      bidFilesDir: await tempDir('bids-app-'),
    });
    try {
      const cookie = await signInAs(state, now(), 'owner@harbour.test');
      // Cookie writes must come from the service's own origin (api/middleware/same-origin.ts).
      const write = (path: string, body: unknown) =>
        service.app.request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', cookie, origin: PUBLIC_URL } });
      const { org_id: orgId } = (await (await write('/v1/orgs', { company_name: 'Harbour Civil Pty Ltd' })).json()) as { org_id: string };
      const created = await write('/v1/bids', { org_id: orgId, title: 'Council fleet servicing' });
      assert.equal(created.status, 201);
      const waiting = await write('/v1/bids', { org_id: orgId, page_key: TENDER_KEY });
      assert.equal(waiting.status, 503, 'no release to look the tender up in');
      assert.equal(waiting.headers.get('retry-after'), '30');
      const document = (await (await service.app.request('/openapi.json')).json()) as { paths: Record<string, Record<string, { security?: unknown[] }>> };
      const expected: [string, string][] = [
        ['/v1/bids', 'get'],
        ['/v1/bids', 'post'],
        ['/v1/bids/{bid}', 'get'],
        ['/v1/bids/{bid}', 'patch'],
        ['/v1/bids/{bid}/files', 'get'],
        ['/v1/bids/{bid}/files', 'post'],
        ['/v1/bids/{bid}/files/{file_id}/url', 'get'],
        ['/v1/bids/{bid}/files/{file_id}/pages/{n}', 'get'],
        ['/v1/bids/{bid}/files/{file_id}/pages/{n}/image', 'get'],
        ['/v1/bids/{bid}/thread', 'get'],
        ['/v1/bids/{bid}/thread', 'post'],
        ['/v1/bids/{bid}/chat', 'get'],
      ];
      for (const [path, method] of expected) assert.deepEqual(document.paths[path]?.[method]?.security, [{ session: [] }, { bearer: [] }], `${method.toUpperCase()} ${path}`);
      assert.equal(document.paths['/v1/bid-files/{file_id}']?.['get']?.security, undefined, 'a signed link needs no session');
    } finally {
      await service.analysisPool.close();
      await state.close();
    }
  });
});
