import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import { checkedKey, checkedPrefix, isKey, type FileBody, type FileStore } from './store.ts';

/** Where an S3 store keeps its objects, from `s3://bucket/prefix?endpoint=…&region=…`. */
export interface S3Location {
  bucket: string;
  /** Put before every key, with a `/` between; `''` for the bucket's root. */
  prefix: string;
  /** An S3-compatible server's address (MinIO, a local fake); unset means AWS itself. */
  endpoint: string | undefined;
  region: string;
  /** Buckets addressed as `endpoint/bucket/key` rather than `bucket.endpoint/key`: what most S3-compatible servers need. */
  pathStyle: boolean;
}

// Lowercase letters, digits, dots and hyphens, 3 to 63 characters (S3's bucket naming rules, simplified).
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const KNOWN_PARAMETERS = new Set(['endpoint', 'region', 'path_style']);

/**
 * Reads `SVC_FILE_STORE_URL`. Credentials never come from the URL (it is printed in logs): the SDK reads them from
 * AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or its other standard sources). The region defaults to AWS_REGION,
 * else us-east-1; path-style addressing is on when an endpoint is given unless `path_style=false`.
 */
export function s3LocationOf(url: string, env: NodeJS.ProcessEnv = process.env): S3Location {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`SVC_FILE_STORE_URL must look like s3://bucket/prefix?endpoint=…&region=…, got ${url}`);
  }
  if (parsed.protocol !== 's3:') throw new Error(`SVC_FILE_STORE_URL must be an s3:// URL, got ${parsed.protocol}`);
  if (parsed.username || parsed.password) throw new Error('SVC_FILE_STORE_URL must not hold credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  if (!BUCKET.test(parsed.hostname)) throw new Error(`SVC_FILE_STORE_URL names no valid bucket: ${JSON.stringify(parsed.hostname)}`);
  for (const name of parsed.searchParams.keys()) {
    if (!KNOWN_PARAMETERS.has(name)) throw new Error(`SVC_FILE_STORE_URL has an unknown parameter ${name} (known: ${[...KNOWN_PARAMETERS].join(', ')})`);
  }
  const prefix = decodeURIComponent(parsed.pathname).replace(/^\/+|\/+$/g, '');
  if (prefix !== '') checkedKey(prefix);
  const endpoint = parsed.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^/]/.test(endpoint)) throw new Error(`SVC_FILE_STORE_URL's endpoint must be an http or https address, got ${endpoint}`);
  const pathStyle = parsed.searchParams.get('path_style');
  if (pathStyle !== null && pathStyle !== 'true' && pathStyle !== 'false') throw new Error(`SVC_FILE_STORE_URL's path_style is true or false, got ${pathStyle}`);
  return {
    bucket: parsed.hostname,
    prefix,
    endpoint,
    region: parsed.searchParams.get('region') ?? (env.AWS_REGION || 'us-east-1'),
    pathStyle: pathStyle === null ? endpoint !== undefined : pathStyle === 'true',
  };
}

/**
 * The file store as objects in an S3 bucket (AWS, or any S3-compatible server): key `a/b` is the object
 * `<prefix>/a/b`. An object is replaced whole by each PUT, so readers never see half of one. Objects carry no ACL
 * and so stay private to the bucket's owner; the bucket's own policy decides who else reads it.
 */
export class S3FileStore implements FileStore {
  readonly description: string;
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #base: string;

  constructor(location: S3Location) {
    this.#client = new S3Client({
      region: location.region,
      forcePathStyle: location.pathStyle,
      ...(location.endpoint === undefined ? {} : { endpoint: location.endpoint }),
      // Checksums only where S3 requires them: S3-compatible servers older than the SDK's default CRC32 refuse it.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.#bucket = location.bucket;
    this.#base = location.prefix === '' ? '' : `${location.prefix}/`;
    this.description = `s3://${location.bucket}/${location.prefix}`;
  }

  /** Throws unless the bucket answers with these credentials: a wrong name or key is found at start, not at the first upload. */
  async checkReachable(): Promise<void> {
    try {
      await this.#client.send(new HeadBucketCommand({ Bucket: this.#bucket }));
    } catch (error) {
      throw new Error(`the file store ${this.description} cannot be reached: ${(error as Error).name || String(error)}`, { cause: error });
    }
  }

  async put(key: string, body: FileBody): Promise<void> {
    const target = { Bucket: this.#bucket, Key: this.#objectKey(key) };
    if (body instanceof Uint8Array) {
      await this.#client.send(new PutObjectCommand({ ...target, Body: body }));
      return;
    }
    // A stream of unknown length goes up in parts (one PUT when it turns out smaller than a part).
    await new Upload({ client: this.#client, params: { ...target, Body: Readable.from(body) } }).done();
  }

  async get(key: string): Promise<Uint8Array | null> {
    const object = await this.#getObject(key);
    return object === null ? null : object.transformToByteArray();
  }

  async stream(key: string): Promise<Readable | null> {
    const object = await this.#getObject(key);
    // In Node the SDK's body is the HTTP response itself.
    return object === null ? null : (object as unknown as Readable);
  }

  async has(key: string): Promise<boolean> {
    try {
      await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: this.#objectKey(key) }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#objectKey(key) }));
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.#client.send(new ListObjectsV2Command({ Bucket: this.#bucket, Prefix: this.#base + checkedPrefix(prefix), ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(this.#base.length);
        // Objects another tool put there under names no key could have are not this store's.
        if (key !== undefined && isKey(key)) keys.push(key);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return keys.sort();
  }

  close(): void {
    this.#client.destroy();
  }

  async #getObject(key: string) {
    try {
      const { Body } = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: this.#objectKey(key) }));
      if (Body === undefined) throw new Error(`the object store answered no body for ${key}`);
      return Body;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  #objectKey(key: string): string {
    return this.#base + checkedKey(key);
  }
}

/** A missing key; a missing bucket (NoSuchBucket) is an error, never an empty store. */
function isNotFound(error: unknown): boolean {
  const { name } = error as { name?: string };
  return name === 'NoSuchKey' || name === 'NotFound';
}
