/**
 * The harness on Bun: a Hono app on Bun.serve with scenario-harness/hono (issue 28).
 * @see https://github.com/scenario-harness/scenario-harness/issues/28
 */
import { defineRuntimeSuite } from './runtime-suite.js';

defineRuntimeSuite('bun');
