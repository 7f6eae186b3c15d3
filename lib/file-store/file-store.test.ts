import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { after, before, describe, it } from 'node:test';
import { startLocalS3, type LocalS3 } from '../../test/helpers/local-s3.ts';
import { tempDir } from '../../test/helpers/temp-dir.ts';
import { copyFiles } from './copy.ts';
import { openFileStore } from './open.ts';
import { s3LocationOf } from './s3-store.ts';
import { withinPrefix, type FileStore } from './store.ts';

const encode = (text: string) => new TextEncoder().encode(text);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A body that arrives in `chunks` pieces of 64 KiB, each filled with its own number. */
async function* arriving(chunks: number): AsyncGenerator<Uint8Array> {
  for (let n = 0; n < chunks; n++) yield new Uint8Array(64 * 1024).fill(n % 251);
}

const BAD_KEYS = ['', '../escape', 'a/../../escape', '/etc/passwd', 'a//b', 'a/', './a', '.hidden', 'a/.partial', 'a\\b', 'a b', 'naïve', 'x'.repeat(901)];

/** What every backend must do the same; `open` gives a fresh, empty store. */
function conformance(open: () => Promise<FileStore>): void {
  let store: FileStore;
  before(async () => {
    store = await open();
  });
  after(() => store.close());

  it('keeps bytes under a key: get, has and stream give them back; a missing key is null or false', async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, n) => n);
    await store.put('bid-files/ab/abc', bytes);
    assert.deepEqual(new Uint8Array((await store.get('bid-files/ab/abc'))!), bytes);
    assert.equal(await store.has('bid-files/ab/abc'), true);
    assert.deepEqual(new Uint8Array(await buffer((await store.stream('bid-files/ab/abc'))!)), bytes);
    assert.equal(await store.get('bid-files/ab/missing'), null);
    assert.equal(await store.stream('bid-files/ab/missing'), null);
    assert.equal(await store.has('bid-files/ab/missing'), false);
    assert.equal(await store.has('bid-files/ab'), false, 'a prefix is not a key');
  });

  it('replaces a key whole; delete removes it, and deleting a missing key is no error', async () => {
    await store.put('replaced/one', encode('first version, the longer of the two'));
    await store.put('replaced/one', encode('second'));
    assert.equal(new TextDecoder().decode((await store.get('replaced/one'))!), 'second');
    await store.delete('replaced/one');
    assert.equal(await store.has('replaced/one'), false);
    assert.equal(await store.get('replaced/one'), null);
    await store.delete('replaced/one');
    await store.delete('never/there');
  });

  it('takes a body as a stream of unknown length and gives it back as one', async () => {
    // 6 MiB: more than one part of the S3 backend's multipart upload (5 MiB parts).
    const chunks: Uint8Array[] = [];
    for await (const chunk of arriving(96)) chunks.push(chunk);
    const expected = Buffer.concat(chunks);
    await store.put('streamed/big.pdf', arriving(96));
    const stored = await store.get('streamed/big.pdf');
    assert.equal(stored?.byteLength, expected.byteLength);
    assert.equal(sha256(stored!), sha256(expected));
    assert.equal(sha256(await buffer((await store.stream('streamed/big.pdf'))!)), sha256(expected));
    await store.put('streamed/empty', arriving(0));
    assert.equal((await store.get('streamed/empty'))?.byteLength, 0);
  });

  it('lists the keys under a prefix, sorted, at every depth, and nothing beside it', async () => {
    for (const key of ['listed/b', 'listed/a/2', 'listed/a/1', 'listed-not/x', 'listedx']) await store.put(key, encode(key));
    assert.deepEqual(await store.list('listed/'), ['listed/a/1', 'listed/a/2', 'listed/b']);
    assert.deepEqual(await store.list('listed/a/'), ['listed/a/1', 'listed/a/2']);
    assert.deepEqual(await store.list('nothing-here/'), []);
    const all = await store.list('');
    for (const key of ['listed/a/1', 'listed-not/x', 'listedx', 'bid-files/ab/abc']) assert.ok(all.includes(key), `${key} in ${all.join(', ')}`);
    assert.deepEqual(all, [...all].sort());
    await assert.rejects(store.list('listed'), /ends with '\/'/);
    await assert.rejects(store.list('../'), /file store key/);
  });

  it('refuses every key that could climb out, be absolute or name a hidden file, on every operation', async () => {
    for (const key of BAD_KEYS) {
      await assert.rejects(store.put(key, encode('x')), /file store key/, `put ${JSON.stringify(key)}`);
      await assert.rejects(store.get(key), /file store key/, `get ${JSON.stringify(key)}`);
      await assert.rejects(store.stream(key), /file store key/, `stream ${JSON.stringify(key)}`);
      await assert.rejects(store.has(key), /file store key/, `has ${JSON.stringify(key)}`);
      await assert.rejects(store.delete(key), /file store key/, `delete ${JSON.stringify(key)}`);
    }
  });

  it('a view within a prefix reads and lists its own keys without the prefix', async () => {
    const view = withinPrefix(store, 'documents');
    await view.put('org_1/doc_1', encode('library document'));
    assert.equal(new TextDecoder().decode((await store.get('documents/org_1/doc_1'))!), 'library document');
    assert.deepEqual(await view.list('org_1/'), ['org_1/doc_1']);
    assert.equal(await view.has('org_1/doc_1'), true);
    await assert.rejects(view.get('../state.sqlite'), /file store key/);
    await view.delete('org_1/doc_1');
    assert.equal(await store.has('documents/org_1/doc_1'), false);
  });
}

describe('folder file store', () => {
  let root: string;
  conformance(async () => {
    root = await tempDir('file-store-folder-');
    return openFileStore({ folder: root });
  });

  it('keeps key a/b at <folder>/a/b, folders 0700 and files 0600, with no temporary file left', async () => {
    const store = await openFileStore({ folder: join(root, 'modes') });
    await store.put('org_1/doc_1', encode('private'));
    await store.put('org_1/doc_2', arriving(2));
    assert.equal(statSync(join(root, 'modes', 'org_1')).mode & 0o777, 0o700);
    for (const name of ['doc_1', 'doc_2']) assert.equal(statSync(join(root, 'modes', 'org_1', name)).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(join(root, 'modes'), { recursive: true }).sort(), ['org_1', 'org_1/doc_1', 'org_1/doc_2']);
  });

  it('a reader racing writers of one key sees one whole version, never part of one', async () => {
    // Folder only: on S3 a PUT is atomic by S3's own guarantee, which s3rver (writing objects in place) does not copy.
    const store = await openFileStore({ folder: join(root, 'raced') });
    const versions = [new Uint8Array(256 * 1024).fill(1), new Uint8Array(128 * 1024).fill(2), new Uint8Array(64 * 1024).fill(3)];
    await store.put('raced/key', versions[0]!);
    const seen = new Set<string>();
    const writes = Promise.all(Array.from({ length: 12 }, (_, n) => store.put('raced/key', versions[n % 3]!)));
    const reads = Promise.all(Array.from({ length: 12 }, async () => seen.add(sha256((await store.get('raced/key'))!))));
    await Promise.all([writes, reads]);
    const whole = new Set(versions.map(sha256));
    for (const hash of seen) assert.ok(whole.has(hash), 'a read returned bytes no writer wrote whole');
  });

  it('lists no temporary file nor any file no key could name', async () => {
    const store = await openFileStore({ folder: join(root, 'strays') });
    await store.put('kept/one', encode('1'));
    writeFileSync(join(root, 'strays', 'kept', '.one.0a1b2c.partial'), 'half');
    writeFileSync(join(root, 'strays', 'kept', 'a name with spaces'), 'stray');
    assert.deepEqual(await store.list(''), ['kept/one']);
  });
});

describe('S3 file store (s3rver on 127.0.0.1)', () => {
  let s3: LocalS3;
  let prefixes = 0;
  before(async () => {
    s3 = await startLocalS3();
  });
  after(() => s3?.close());
  conformance(() => openFileStore({ url: s3.urlFor(`conformance-${++prefixes}`), folder: '/nonexistent-never-used' }));

  it('keeps every object under the URL prefix, beside other prefixes of the same bucket', async () => {
    const inner = await openFileStore({ url: s3.urlFor('tenant/a'), folder: '/nonexistent-never-used' });
    const bucket = await openFileStore({ url: s3.urlFor(''), folder: '/nonexistent-never-used' });
    try {
      await inner.put('bid-files/00/x', encode('x'));
      assert.deepEqual(await inner.list(''), ['bid-files/00/x']);
      assert.ok((await bucket.list('tenant/a/')).includes('tenant/a/bid-files/00/x'));
    } finally {
      inner.close();
      bucket.close();
    }
  });

  it("copies a folder's files under the given prefixes to the bucket, streamed, and a second run only what is new", async () => {
    const folder = await openFileStore({ folder: await tempDir('file-store-copy-') });
    const target = await openFileStore({ url: s3.urlFor('copied'), folder: '/nonexistent-never-used' });
    try {
      await folder.put('state.sqlite', encode('not a file to copy'));
      await folder.put('bid-files/ab/ab1', encode('one'));
      await folder.put('bid-files/renders/ab1/1.png', arriving(20));
      assert.deepEqual(await copyFiles(folder, target, ['bid-files/']), { copied: 2, present: 0 });
      await folder.put('bid-files/cd/cd2', encode('two'));
      assert.deepEqual(await copyFiles(folder, target, ['bid-files/']), { copied: 1, present: 2 });
      assert.deepEqual(await target.list(''), ['bid-files/ab/ab1', 'bid-files/cd/cd2', 'bid-files/renders/ab1/1.png']);
      assert.equal(sha256((await target.get('bid-files/renders/ab1/1.png'))!), sha256((await folder.get('bid-files/renders/ab1/1.png'))!));
    } finally {
      folder.close();
      target.close();
    }
  });

  it('fails at open when the bucket is not there, rather than at the first upload', async () => {
    const url = s3.urlFor('x').replace('s3://tender-intel-test/', 's3://no-such-bucket/');
    await assert.rejects(openFileStore({ url, folder: '/nonexistent-never-used' }), /cannot be reached/);
  });
});

describe('SVC_FILE_STORE_URL', () => {
  it('names a bucket, a prefix, an endpoint and a region; path-style with an endpoint', () => {
    assert.deepEqual(s3LocationOf('s3://bids-bucket/prod/files?endpoint=http://127.0.0.1:9000&region=ap-southeast-2', {}), {
      bucket: 'bids-bucket',
      prefix: 'prod/files',
      endpoint: 'http://127.0.0.1:9000',
      region: 'ap-southeast-2',
      pathStyle: true,
    });
    assert.deepEqual(s3LocationOf('s3://bids-bucket', { AWS_REGION: 'ap-southeast-4' }), { bucket: 'bids-bucket', prefix: '', endpoint: undefined, region: 'ap-southeast-4', pathStyle: false });
    assert.equal(s3LocationOf('s3://bids-bucket/?endpoint=https://s3.example.test&path_style=false', {}).pathStyle, false);
  });

  it('refuses credentials in the URL, unknown parameters, bad buckets, prefixes and endpoints', () => {
    assert.throws(() => s3LocationOf('s3://key:secret@bids-bucket/p', {}), /must not hold credentials/);
    assert.throws(() => s3LocationOf('s3://bids-bucket/p?secret=1', {}), /unknown parameter secret/);
    assert.throws(() => s3LocationOf('s3://Bids_Bucket/p', {}), /no valid bucket/);
    assert.throws(() => s3LocationOf('s3://bids-bucket/.hidden/p', {}), /file store key/);
    assert.throws(() => s3LocationOf('s3://bids-bucket/p?endpoint=file:///etc', {}), /http or https/);
    assert.throws(() => s3LocationOf('https://bids-bucket/p', {}), /s3:\/\/ URL/);
    assert.throws(() => s3LocationOf('s3://bids-bucket/p?path_style=yes', {}), /true or false/);
  });
});
