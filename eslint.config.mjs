// Lint keeps the layers of docs/DEVELOPING.md: the gateway client, the shared protocol and the
// cores must run without VS Code, so they may not import `vscode`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const noVscode = {
  'no-restricted-imports': ['error', {
    paths: [{ name: 'vscode', message: 'This layer must run without VS Code (see docs/DEVELOPING.md).' }],
  }],
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'out/**', '.cache/**', 'test-results/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  { files: ['src/api/**/*.ts', 'src/shared/**/*.ts', 'src/*/core/**/*.ts', 'webview/**/*.ts', 'webview/**/*.tsx'], rules: noVscode },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/platform/log.ts'],
    rules: { 'no-console': 'error' },
  },
);
