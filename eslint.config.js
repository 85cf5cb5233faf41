// Lint rules chosen for the bugs they catch: floating promises, explicit any, focused or skipped tests.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const focusedOrSkippedTests = [
  { object: 'it', property: 'only' },
  { object: 'describe', property: 'only' },
  { object: 'it', property: 'skip' },
  { object: 'describe', property: 'skip' },
  { object: 'test', property: 'only' },
  { object: 'test', property: 'skip' },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'data/**',
      'bin/**',
      'bench/.cache/**',
      '.tmp*/**',
      'eslint.config.js',
      'src/dashboard/public/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The build script runs in Node before anything is compiled, so it is plain JavaScript.
    files: ['scripts/**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', ...focusedOrSkippedTests],
    },
  },
  {
    // A count on a dashboard page is written by one function (`formatCount`, `countOf`, in
    // src/infra/counts.ts), thousands separated: pages wrote their own, some without separators.
    files: ['src/dashboard/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...focusedOrSkippedTests,
        {
          property: 'toLocaleString',
          message: 'Write a count with formatCount or countOf (src/dashboard/html.ts).',
        },
      ],
    },
  },
);
