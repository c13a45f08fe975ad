/**
 * The shared adapter conformance suite on Deno: the Hono adapter on Deno.serve, and
 * scenario-harness/node on Deno's node:http server (issue 28).
 * @see https://github.com/scenario-harness/scenario-harness/issues/28
 */
import { defineAdapterSuite } from '../conformance/adapter-suite.js';
import { requireRuntime } from './require-runtime.js';
import { runtimeFixture } from './runtime-fixture.js';

const deno = requireRuntime('deno', { suite: 'adapter conformance on deno', file: 'test/runtimes/conformance-deno.test.ts' });
if (deno !== undefined) {
  defineAdapterSuite({ name: `hono (Deno.serve, Deno ${deno.version})`, start: runtimeFixture('deno', deno.binary, 'conformance-hono-app.js') });
  defineAdapterSuite({ name: `node:http (Deno ${deno.version})`, start: runtimeFixture('deno', deno.binary, 'conformance-node-app.js') });
}
