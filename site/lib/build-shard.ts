// Which pages this build writes when the site is built by several Astro builds at once, one a core
// (pipeline/site-build.ts sets SITE_BUILD_SHARD to `<index>/<count>` in each). The routes with a page per entry
// (a tender's, a buyer's: nearly every page of the site) are dealt out in turn; every other route is the first
// build's. Without SITE_BUILD_SHARD one build writes every page.
import { z } from 'zod';

const Shard = z.string().regex(/^\d+\/\d+$/).transform((value) => {
  const [index, count] = value.split('/').map(Number) as [number, number];
  return { index, count };
}).refine(({ index, count }) => count >= 1 && index < count, 'SITE_BUILD_SHARD is <index>/<count> with index below count');

let shard: { index: number; count: number } | undefined;

function thisShard(): { index: number; count: number } {
  shard ??= process.env.SITE_BUILD_SHARD ? Shard.parse(process.env.SITE_BUILD_SHARD) : { index: 0, count: 1 };
  return shard;
}

/** The paths of a page-per-entry route this build renders: every count-th, from its own index. */
export function dealt<T>(paths: readonly T[]): T[] {
  const { index, count } = thisShard();
  return paths.filter((_, i) => i % count === index);
}

/** The paths of any other route: all of them in the first build, none in the others. */
export function firstBuildOnly<T>(paths: readonly T[]): T[] {
  return thisShard().index === 0 ? [...paths] : [];
}
