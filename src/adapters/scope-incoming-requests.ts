import { Server as HttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Server as HttpsServer } from 'node:https';
import type { Harness } from '../core/create-harness.js';
import { answeringHarness } from '../core/answering-harness.js';
import { HarnessError } from '../core/errors.js';
import { serveAsTest } from './_node-http.js';
import { createOwnServerReadiness } from './own-server-readiness.js';

type Emit = (this: HttpServer, event: string | symbol, ...args: unknown[]) => boolean;

/** The harness that scopes this process's servers, kept on globalThis so copies of the package see it. */
const SCOPING_KEY = Symbol.for('scenario-harness.scoped-incoming-requests');

interface Scoping {
  harness: Harness;
  undo(): void;
}

function currentScoping(): Scoping | undefined {
  return (globalThis as Record<symbol, Scoping | undefined>)[SCOPING_KEY];
}

/** The harness that answers every node:http/https server's requests in this process, if any. */
export function scopingHarness(): Harness | undefined {
  return currentScoping()?.harness;
}

/**
 * Every inbound request on this process's node:http and node:https servers runs as its test,
 * whatever framework (or none) created the server, and the harness's control endpoints are
 * answered before the app sees them: the glue `scenario-harness/register` installs. One
 * harness per process; calling it again with the same harness returns the same undo, and with
 * the harness that took over from it (its module evaluated again) moves the servers to that one.
 * @returns a function that puts the servers' `emit` back.
 *
 * @example
 * const harness = createHarness({ enabled: process.env.HARNESS_ENABLED === 'true', scenarios });
 * await harness.start();
 * scopeIncomingRequests(harness); // before or after the app's server starts listening
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/no-code-setup.md
 */
export function scopeIncomingRequests(harness: Harness): () => void {
  if (typeof harness?.run !== 'function') throw new TypeError(`Expected a harness from createHarness(), instead got ${typeof harness}.`);
  if (!harness.enabled) return () => {};
  const existing = currentScoping();
  if (existing !== undefined) {
    if (existing.harness === harness) return existing.undo;
    // The module that scoped the servers was evaluated again (a dev server's reload): its new
    // harness, now the one answering, takes the servers over.
    if (answeringHarness()?.harness === harness) {
      existing.harness = harness;
      return existing.undo;
    }
    throw new HarnessError(
      'INVALID_OPTIONS',
      'Failed to scope incoming requests: another harness already answers this process\'s servers (scenario-harness/register, or an earlier scopeIncomingRequests()). One harness per process: remove the second one.',
    );
  }

  const scoping: Scoping = { harness, undo: () => {} };
  // @note The control endpoints answer here before the app's handler exists (a CLI that owns the
  // port while it builds): `?ready` on the catalogue asks the app for a page instead.
  const readiness = createOwnServerReadiness();
  const restores = [HttpServer.prototype, HttpsServer.prototype].map((prototype) => {
    const own = Object.getOwnPropertyDescriptor(prototype, 'emit');
    const original = prototype.emit as Emit;
    const emit: Emit = function (this: HttpServer, event, ...args) {
      if (event !== 'request') return original.call(this, event, ...args);
      const [req, res] = args as [IncomingMessage, ServerResponse];
      serveAsTest(scoping.harness, req, res, () => original.call(this, event, req, res), readiness);
      return true;
    };
    // @note Wrapping `emit` of the server classes (as OpenTelemetry's http instrumentation does)
    // reaches servers created before and after this call, by any framework, with no change to the app.
    Object.defineProperty(prototype, 'emit', { value: emit, writable: true, configurable: true, enumerable: false });
    return () => {
      if (prototype.emit !== emit) return;
      if (own === undefined) delete (prototype as { emit?: unknown }).emit;
      else Object.defineProperty(prototype, 'emit', own);
    };
  });

  scoping.undo = () => {
    for (const restore of restores) restore();
    if (currentScoping() === scoping) delete (globalThis as Record<symbol, Scoping | undefined>)[SCOPING_KEY];
  };
  (globalThis as Record<symbol, Scoping | undefined>)[SCOPING_KEY] = scoping;
  return scoping.undo;
}
