/**
 * The LLM SDKs in a Hono app on Bun, answered by the harness there (issue 40, item 7).
 * @see https://github.com/scenario-harness/scenario-harness/issues/40
 */
import { defineLlmSdkSuite } from './llm-sdks-suite.js';

defineLlmSdkSuite('bun');
