// The JavaScript linter's settings (ESLint, flat config), for the site's hand-written files
// (web/*.js, classic scripts; web/js/*.js, the app's ES modules) and the review page's script (tools/analysis/review_page.js): classic scripts
// for browsers, held to ESLint's recommended rules. scripts/test.sh runs it from the
// repository's root:
//   web/node_modules/.bin/eslint --config web/eslint.config.js web tools/analysis/review_page.js
const js = require('@eslint/js');
const globals = require('globals');

module.exports = [
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'script',
      globals: {...globals.browser},
    },
    rules: {
      'no-unused-vars': ['error', {args: 'after-used'}],
      'strict': ['error', 'function'],
      'eqeqeq': 'error',
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },
  {
    // The app's modules (web/js/): ES modules, in the page and in its workers.
    files: ['**/js/**/*.js'],
    languageOptions: {sourceType: 'module', globals: {...globals.browser, DiverciteBoard: 'readonly'}},
  },
  {
    // The linter's own settings are read by Node.js.
    files: ['**/eslint.config.js'],
    languageOptions: {sourceType: 'commonjs', globals: {...globals.node}},
    rules: {'strict': 'off'},
  },
];
