import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'examples/next-app/.next/', 'examples/next-app/next-env.d.ts', 'examples/nextjs/.next/', 'examples/nextjs/next-env.d.ts', 'test/register/fixtures/next-plain-app/.next/', 'test/register/fixtures/next-plain-app/next-env.d.ts', 'test/register/fixtures/*.dev-*/', 'bench/results/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { console: 'readonly', process: 'readonly', Buffer: 'readonly', URL: 'readonly', fetch: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Response: 'readonly', Request: 'readonly', Headers: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // Nitro's server routes use its auto-imports, as a Nuxt app's do.
    files: ['test/frameworks/fixtures/nuxt-app/server/**/*.js'],
    languageOptions: { globals: { defineEventHandler: 'readonly', getRouterParam: 'readonly', setResponseHeader: 'readonly', setResponseStatus: 'readonly' } },
  },
  {
    // The core speaks Fetch: no framework type crosses into it (STYLE.md).
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['express', 'fastify', 'hono', 'hono/*', 'koa', 'next', 'next/*', '@playwright/*', 'redis', 'ioredis'], message: 'src/core is framework-free; put framework code in src/adapters.' },
            { group: ['../adapters/*', '../../adapters/*'], message: 'src/core must not depend on adapters.' },
          ],
        },
      ],
    },
  },
);
