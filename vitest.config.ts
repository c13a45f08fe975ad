import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests import the package by its published names; these aliases point them at the sources.
const entries = JSON.parse(readFileSync(new URL('./source-entries.json', import.meta.url), 'utf8')) as Record<string, string>;
const alias = Object.entries(entries)
  .filter(([name]) => name !== '//')
  .sort(([a], [b]) => b.length - a.length)
  .map(([name, file]) => ({ find: new RegExp(`^${name.replace('/', '\\/')}$`), replacement: fileURLToPath(new URL(`./${file}`, import.meta.url)) }));

export default defineConfig({
  resolve: { alias },
  test: {
    // examples/**/*.test.ts: the test files the guides show (docs/client.md, docs/recipes.md) run as they are.
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    exclude: ['test/browser/**', '**/node_modules/**', 'examples/next-app/**', 'examples/nextjs/**'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Interception patches process globals: every test file gets its own process.
    pool: 'forks',
    // Vitest's default is one worker less than the cores: one worker on a 2-core machine. Many files
    // spend their time waiting on processes they start (framework builds, servers, other runtimes),
    // so three workers keep both cores busy: the whole suite in 7.5 minutes instead of 14 here.
    maxWorkers: Math.max(availableParallelism() - 1, 3),
  },
});
