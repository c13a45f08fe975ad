/**
 * The harness on Deno: a Hono app on Deno.serve with scenario-harness/hono (issue 28).
 * @see https://github.com/scenario-harness/scenario-harness/issues/28
 */
import { defineRuntimeSuite } from './runtime-suite.js';

defineRuntimeSuite('deno');
