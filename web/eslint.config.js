// The JavaScript linter's settings (ESLint, flat config), for the site's hand-written files
// (web/*.js) and the review page's script (tools/analysis/review_page.js): classic scripts
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
    // The linter's own settings are read by Node.js.
    files: ['**/eslint.config.js'],
    languageOptions: {sourceType: 'commonjs', globals: {...globals.node}},
    rules: {'strict': 'off'},
  },
];
