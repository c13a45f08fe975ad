import { beforeAll } from 'vitest';
import { defineAdapterSuite } from '../conformance/adapter-suite.js';
import { startNextFixture } from './fixtures/next.js';
import { ensureNextBuild } from './fixtures/next-build.js';

// `next build` on two cores takes a minute or more; the next*.test.ts files share one build.
beforeAll(ensureNextBuild, 600_000);

// Route handlers under app/app-router/, control endpoints in app/%5F%5Fscenario%5F%5F/route.ts
// and app/%5F%5Fharness%5F%5F/state/route.ts, all in `next start` (examples/next-app).
defineAdapterSuite({ name: 'next (App Router)', start: startNextFixture('app') });
