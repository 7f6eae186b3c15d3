import S3rver from 's3rver';
import { tempDir } from './temp-dir.ts';

export interface LocalS3 {
  /** `SVC_FILE_STORE_URL` for `prefix` in the server's bucket. */
  urlFor(prefix: string): string;
  close(): Promise<void>;
}

/** The credentials s3rver accepts; the S3 client reads them from these variables, as in production. */
export const LOCAL_S3_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

/**
 * An S3-compatible server (s3rver, from npm) on 127.0.0.1 and a free port, its objects in a temporary folder, with
 * one empty bucket. Sets the credentials it accepts in this process's environment, where the S3 client reads them.
 */
export async function startLocalS3(bucket = 'tender-intel-test'): Promise<LocalS3> {
  Object.assign(process.env, LOCAL_S3_CREDENTIALS);
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: await tempDir('local-s3-'), configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    urlFor: (prefix) => `s3://${bucket}/${prefix}?endpoint=${encodeURIComponent(`http://127.0.0.1:${port}`)}&region=ap-southeast-2`,
    close: () => server.close(),
  };
}
