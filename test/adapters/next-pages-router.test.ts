import { beforeAll } from 'vitest';
import { defineAdapterSuite } from '../conformance/adapter-suite.js';
import { startNextFixture } from './fixtures/next.js';
import { ensureNextBuild } from './fixtures/next-build.js';

// `next build` on two cores takes a minute or more; the next*.test.ts files share one build.
beforeAll(ensureNextBuild, 600_000);

// API routes under pages/api/pages-router/, control endpoints in proxy.ts, all in `next start`
// (examples/next-app).
defineAdapterSuite({ name: 'next (Pages Router, control endpoints in proxy.ts)', start: startNextFixture('pages') });
