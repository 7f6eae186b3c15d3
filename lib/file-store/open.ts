import type { FileStore } from './store.ts';
import { FolderFileStore } from './folder-store.ts';

/**
 * The store of `url` (`SVC_FILE_STORE_URL`, `s3://bucket/prefix?endpoint=…&region=…`), else a folder. The S3 client
 * is loaded only when a URL asks for it, so a server on the folder never holds it.
 */
export async function openFileStore(options: { url?: string | undefined; folder: string }): Promise<FileStore> {
  if (options.url === undefined || options.url === '') return new FolderFileStore(options.folder);
  const { S3FileStore, s3LocationOf } = await import('./s3-store.ts');
  const store = new S3FileStore(s3LocationOf(options.url));
  try {
    await store.checkReachable();
  } catch (error) {
    store.close();
    throw error;
  }
  return store;
}
