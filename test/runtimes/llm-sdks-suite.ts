import { afterAll, beforeAll, describe } from 'vitest';
import type { RuntimeName } from '../../scripts/ensure-runtimes.mjs';
import { defineLlmSdkCases } from '../llm/llm-sdk-cases.js';
import { requireRuntime } from './require-runtime.js';
import { startRuntimeApp, type RuntimeApp } from './start-runtime-app.js';

/**
 * The LLM SDKs on Bun or Deno (issue 40, item 7): a Hono app on the runtime's own server
 * (fixtures/llm-sdks-app.js) calls `openai`, `@anthropic-ai/sdk`, `@google/genai` and the AI SDK
 * over `@ai-sdk/openai` and `@ai-sdk/anthropic`, answered by the harness on that runtime; the
 * cases (test/llm/llm-sdk-cases.ts, the Next.js route handlers' too) drive it over HTTP from
 * Node. Without the pinned binary the suite is skipped with the command that installs it; on CI
 * it fails instead (requireRuntime).
 */
export function defineLlmSdkSuite(runtime: RuntimeName): void {
  const installed = requireRuntime(runtime, { suite: `the LLM SDKs on ${runtime}`, file: `test/runtimes/llm-sdks-${runtime}.test.ts` });
  if (installed === undefined) return;

  describe(`the LLM SDKs on ${runtime} ${installed.version}`, () => {
    let app: RuntimeApp;
    beforeAll(async () => {
      app = await startRuntimeApp(runtime, installed.binary, { app: 'llm-sdks-app.js' });
    });
    afterAll(() => app?.stop());

    defineLlmSdkCases(() => ({ origin: app.origin, prefix: '/llm' }));
  });
}
