import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    // Hand-written browser code served by the site.
    files: ['src/site/assets/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Benchmarks, scripts and the CLI talk to a terminal.
    files: ['bench/**', 'scripts/**', 'src/cli/**', 'test/**'],
    rules: { 'no-console': 'off' },
  },
);
