// The static intelligence site (site/). The nightly run's publish stage builds it from a release's site
// JSON (pipeline/site-build.ts passes SITE_JSON_DIR and the release's output folder); these are the
// settings every build shares.
import { defineConfig } from 'astro/config';

export default defineConfig({
  srcDir: './site',
  publicDir: './site/public',
  // Overridden per release by pipeline/site-build.ts; this default is where a hand-run `astro build` lands.
  outDir: './data/site-dist',
  output: 'static',
  trailingSlash: 'always',
  build: {
    format: 'directory',
    // One stylesheet file shared by every page, cached once, rather than a copy inlined into each page.
    inlineStylesheets: 'never',
    // Pages render while earlier ones are written: writing thousands of page files is most of a build's
    // wall time, and rendering one page does not wait on another. Measured at 2,337 pages (bench/site-bench.ts).
    concurrency: 4,
  },
  compressHTML: true,
  devToolbar: { enabled: false },
  // Nothing on the site is fetched from another host: no remote images, no prefetching scripts.
  prefetch: false,
  vite: {
    environments: {
      // Astro's prerender bundle is written under the project root and imports `cookie` by name; npm nests
      // Astro's cookie 2 under astro/ because another dependency hoists cookie 0.7, so resolving it from the
      // root finds the wrong major. Bundling it resolves it from Astro's own folder (as Astro itself does
      // for neotraverse).
      prerender: { resolve: { noExternal: ['cookie'] } },
    },
  },
});
