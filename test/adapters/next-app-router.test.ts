import { beforeAll, describe } from 'vitest';
import { defineAdapterSuite } from '../conformance/adapter-suite.js';
import { startNextFixture } from './fixtures/next.js';
import { ensureNextBuild, NEXT_TARGETS } from './fixtures/next-build.js';

// Route handlers under app/app-router/, control endpoints in app/%5F%5Fscenario%5F%5F/route.ts
// and app/%5F%5Fharness%5F%5F/state/route.ts, all in `next start` (examples/next-app), on every
// Next.js major (test-runtimes.json names the previous one).
for (const target of NEXT_TARGETS) {
  describe(target.label, () => {
    // `next build` on two cores takes a minute or more; the next*.test.ts files share one build per major.
    beforeAll(() => ensureNextBuild(target), 600_000);
    defineAdapterSuite({ name: `${target.label} (App Router)`, start: startNextFixture('app', target) });
  });
}
