// The JavaScript linter's settings (ESLint, flat config), held to ESLint's recommended rules:
// the site's hand-written files (web/: ES modules, among them the review and replay pages'
// and the arena's game page's, but the engine's worker, a classic worker script; not the
// bundles esbuild makes of them, web/pages/), the web build's checks under node (tools/web/),
// the arena pages' scripts (python/divercite/arena/pages/static/), and the tests of the page's
// modules under node (tests/web/*.mjs). scripts/test.sh runs it from the repository's root:
//   web/node_modules/.bin/eslint --config web/eslint.config.js web tools/web \
//     python/divercite/arena/pages/static tests/web
const js = require('@eslint/js');
const globals = require('globals');

module.exports = [
  {ignores: ['**/web/pages/']},
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: {...globals.browser},
    },
    rules: {
      'no-unused-vars': ['error', {args: 'after-used'}],
      'eqeqeq': 'error',
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },
  {
    files: ['**/engine-worker.js'],
    languageOptions: {sourceType: 'script', globals: {...globals.worker}},
  },
  {
    // The web build's checks under node (tools/web/*.js: ctest web_bench_signature, web_rules).
    files: ['**/tools/web/*.js'],
    languageOptions: {sourceType: 'commonjs', globals: {...globals.node}},
  },
  {
    // The page's modules tested under node (tests/web/*.mjs: ctest web_protocol_js,
    // web_formats_js).
    files: ['**/tests/web/*.mjs'],
    languageOptions: {sourceType: 'module', globals: {...globals.node}},
    rules: {
      'no-unused-vars': ['error', {args: 'after-used'}],
      'eqeqeq': 'error',
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },
  {
    // The linter's own settings are read by Node.js.
    files: ['**/eslint.config.js'],
    languageOptions: {sourceType: 'commonjs', globals: {...globals.node}},
  },
];
