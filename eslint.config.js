// The linter: typescript-eslint's recommended rules over every TypeScript file (formatting is
// Prettier's). `npm run lint` runs both; test/build/lint.test.ts keeps them in `npm test`.
import tseslint from 'typescript-eslint'

/**
 * Not linted: installed packages, tool output, the compiled service (`npm run build`), and the SDK's generated types
 * (openapi-typescript's output, `npm run sdk:generate`, checked against /api-json instead).
 */
const IGNORED = ['node_modules/**', 'coverage/**', '.tap/**', 'data/**', 'dist/**', 'sdk/src/generated/**', 'console/dist/**']

export default tseslint.config({ ignores: IGNORED }, ...tseslint.configs.recommended, {
  files: ['**/*.ts', '**/*.tsx'],
  rules: {
    // Unused names are dead code; a leading underscore marks a parameter kept for its position.
    '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    // The input guards match NUL and control characters on purpose.
    'no-control-regex': 'off',
  },
})
