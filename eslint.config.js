// @ts-check
// ESLint for the web client (web/static/web): the recommended rules, a few more that catch
// real mistakes, and the house style (@stylistic), so `make lint` is also the format check
// (`npx eslint --fix` applies it). The types are TypeScript's job (jsconfig.json).
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import globals from 'globals';

export default [
  { ignores: ['.venv/', 'node_modules/', 'staticfiles/', 'build/', 'dist/'] },
  js.configs.recommended,
  {
    files: ['web/static/web/**/*.js'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: globals.browser },
  },
  {
    files: ['eslint.config.js', 'tests/js/**/*.js', 'web/types/*.js'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: globals.node },
  },
  {
    files: ['**/*.js'],
    plugins: { '@stylistic': stylistic },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-implicit-coercion': ['error', { allow: ['!!'] }],
      'no-var': 'error',
      'prefer-const': 'error',
      'no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@stylistic/max-len': ['error', {
        code: 100, ignoreUrls: true, ignoreRegExpLiterals: true,
      }],
      '@stylistic/indent': ['error', 2, {
        SwitchCase: 1, flatTernaryExpressions: true, ignoredNodes: ['CallExpression > *'],
      }],
      '@stylistic/quotes': ['error', 'single', { avoidEscape: true }],
      '@stylistic/semi': ['error', 'always'],
      '@stylistic/comma-dangle': ['error', 'always-multiline'],
      '@stylistic/comma-spacing': 'error',
      '@stylistic/key-spacing': 'error',
      '@stylistic/keyword-spacing': 'error',
      '@stylistic/space-before-blocks': 'error',
      '@stylistic/space-infix-ops': 'error',
      '@stylistic/arrow-parens': ['error', 'always'],
      '@stylistic/arrow-spacing': 'error',
      '@stylistic/brace-style': ['error', '1tbs', { allowSingleLine: true }],
      '@stylistic/eol-last': 'error',
      '@stylistic/no-trailing-spaces': 'error',
      '@stylistic/no-multiple-empty-lines': ['error', { max: 1, maxEOF: 0 }],
      '@stylistic/no-tabs': 'error',
      '@stylistic/operator-linebreak': ['error', 'before'],
      '@stylistic/quote-props': ['error', 'as-needed'],
      '@stylistic/space-before-function-paren': ['error', {
        anonymous: 'always', named: 'never', asyncArrow: 'always',
      }],
    },
  },
];
