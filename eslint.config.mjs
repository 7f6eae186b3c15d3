// One rule, type-aware: a promise nobody awaits, handles or marks `void` is how a route answered before its
// writes finished (a bid's requirements recomputed without `await`). The type checker itself runs as `typecheck`.
import tseslint from 'typescript-eslint';

export default tseslint.config({
  files: ['{lib,sources,pipeline,data,api,test,bench,scripts,site/scripts}/**/*.ts'],
  ignores: ['data/releases/**', 'data/outbox/**'],
  languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  plugins: { '@typescript-eslint': tseslint.plugin },
  linterOptions: { reportUnusedDisableDirectives: 'off' },
  rules: {
    '@typescript-eslint/no-floating-promises': [
      'error',
      // node:test's `describe` and `it` return promises the runner itself awaits.
      { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] },
    ],
  },
});
