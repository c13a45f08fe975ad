/**
 * The LLM SDKs from a Next.js App Router route handler (issue 40, item 7), on every Next.js
 * major: the routes in examples/next-app/app/app-router/llm under `next start`, the harness
 * attached as docs/nextjs.md tells (createNextHarness + registerHarness in instrumentation.ts).
 * The cases are test/llm/llm-sdk-cases.ts, shared with the Bun and Deno suites.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { defineLlmSdkCases } from '../llm/llm-sdk-cases.js';
import { ensureNextBuild, NEXT_TARGETS } from './fixtures/next-build.js';
import { startNextApp } from './fixtures/next.js';

for (const target of NEXT_TARGETS) {
  describe(`${target.label}: LLM SDKs in App Router route handlers`, () => {
    let app: Awaited<ReturnType<typeof startNextApp>>;
    // `next build` on two cores takes a minute or more; the next*.test.ts files share one build per major.
    beforeAll(() => ensureNextBuild(target), 600_000);
    beforeAll(async () => {
      app = await startNextApp({ HARNESS_ENABLED: 'true' }, target);
    });
    afterAll(() => app?.close());

    defineLlmSdkCases(() => ({ origin: app.origin, prefix: '/app-router/llm' }));
  });
}
