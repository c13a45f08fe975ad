import { beforeAll, describe } from 'vitest';
import { defineAdapterSuite } from '../conformance/adapter-suite.js';
import { startNextFixture } from './fixtures/next.js';
import { ensureNextBuild, NEXT_TARGETS } from './fixtures/next-build.js';

// API routes under pages/api/pages-router/, control endpoints in proxy.ts (Next.js 15:
// middleware.ts on the Node.js runtime), all in `next start` (examples/next-app), on every major.
for (const target of NEXT_TARGETS) {
  describe(target.label, () => {
    // `next build` on two cores takes a minute or more; the next*.test.ts files share one build per major.
    beforeAll(() => ensureNextBuild(target), 600_000);
    defineAdapterSuite({ name: `${target.label} (Pages Router, control endpoints in the proxy)`, start: startNextFixture('pages', target) });
  });
}
