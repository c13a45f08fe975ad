import { HINT_HEADER } from '../core/constants.js';
import { readHintHeader } from '../core/control/hint-header.js';
import type { Logger } from '../core/dev-utils.js';
import { HarnessError } from '../core/errors.js';
import type { HarnessEndpoints } from '../core/types.js';
import { describeError } from './describe-error.js';
import { testIdHeaders } from './harness-baggage.js';
import { isConnectionReset } from './is-connection-reset.js';
import { isRecord } from './is-record.js';

/**
 * How the client sends a control request: the Fetch API's `fetch`, or anything with its
 * shape (Playwright's request context, an in-process `harness.handle`).
 */
export type ControlFetch = (url: string, init: { method: string; headers: Record<string, string>; body?: string; redirect: 'manual' }) => Promise<Response>;

/** A control request's outcome: its status and its body (parsed when it is JSON). */
export interface ControlResponse {
  status: number;
  body: unknown;
  /** The app's help beyond the SPEC body (`x-harness-hint`): a "did you mean", an undeclared variant. */
  hint: string | undefined;
}

/** What one test's connection is made of; `HarnessClient` fills it in from its own options. */
interface ControlConnectionInit {
  testId: string;
  endpoints: Readonly<Required<HarnessEndpoints>>;
  baseURL: string | undefined;
  fetch: ControlFetch;
  logger: Pick<Logger, 'warn'>;
  wording: { baseURL: string; endpoints: string };
  token: string | undefined;
}

/** A control call is tried this often when the connection is reset under it. */
const MAX_ATTEMPTS = 3;

/** Where a framework routes each path to its own file, the control paths need theirs. */
const MISSING_ROUTE_REMEDY =
  "On Next.js's App Router, every control path needs a route file: app/%5F%5Fscenario%5F%5F/route.ts, and app/%5F%5Fharness%5F%5F/[[...path]]/route.ts for every /__harness__/ path (the Next.js guide, step 5).";

/**
 * One test's line to the app's control endpoints, shared by every concern of the client
 * (switching, verification, own mocks and state, recording, browser answers): it sends a call as
 * the test, tries it again when the connection is reset, and turns a refusal into the error a
 * user reads. The wording of those errors lives here only, so every concern fails alike.
 */
export class ControlConnection {
  readonly testId: string;
  readonly endpoints: Readonly<Required<HarnessEndpoints>>;
  /** Where the app's warnings about a call (an undeclared variant) are written. */
  readonly logger: Pick<Logger, 'warn'>;
  readonly #baseURL: string | undefined;
  readonly #fetch: ControlFetch;
  readonly #wording: { baseURL: string; endpoints: string };
  /** `{ authorization: 'Bearer …' }`, or nothing: only control calls carry it. */
  readonly #credentials: Record<string, string>;
  /**
   * A control path of this app that has answered 2xx, if any: a later 404 on another path then
   * means a missing route (Next.js serves each path from its own route file), not a harness
   * that is off.
   */
  #servedPath: string | undefined;

  constructor({ testId, endpoints, baseURL, fetch, logger, wording, token }: ControlConnectionInit) {
    this.testId = testId;
    this.endpoints = endpoints;
    this.logger = logger;
    this.#baseURL = baseURL;
    this.#fetch = fetch;
    this.#wording = wording;
    this.#credentials = token === undefined ? {} : { authorization: `Bearer ${token}` };
  }

  /** Send one control call as this test; `action` says what it was for in any error. */
  async send(action: string, method: string, path: string, data?: unknown): Promise<ControlResponse> {
    const url = this.#url(action, path);
    // @note Every call says JSON, a bodiless DELETE included: SvelteKit's and Astro's CSRF checks
    // refuse a cross-site-looking DELETE or POST with no content type (or text/plain) in production.
    const headers = { ...testIdHeaders(this.testId), ...this.#credentials, 'content-type': 'application/json' };
    const init = { method, headers, redirect: 'manual' as const, ...(data === undefined ? {} : { body: JSON.stringify(data) }) };
    for (let attempt = 1; ; attempt += 1) {
      try {
        const response = await this.#fetch(url, init);
        const text = await response.text();
        if (response.status >= 200 && response.status < 300) this.#servedPath = path.split('?')[0];
        return { status: response.status, body: parseJson(text) ?? text, hint: readHintHeader(response.headers.get(HINT_HEADER)) };
      } catch (error) {
        // @note A keep-alive connection the app closed as idle can be reset under the next
        // request before the client notices; the request never reached the app, so it is sent
        // again on a new connection. Control calls are idempotent (a switch, read or end).
        if (attempt < MAX_ATTEMPTS && isConnectionReset(error)) continue;
        const retried = attempt > 1 ? ` (${attempt} attempts; the connection was reset each time)` : '';
        throw new Error(`Failed to ${action}: ${method} ${url} failed: ${describeError(error)}${retried}. Is the app running at ${this.#baseURL}?`, { cause: error });
      }
    }
  }

  /**
   * Throw for an answer the caller cannot use: a 404 says whether the harness is off or one
   * route is missing, a 4xx carries the app's own error text, a 5xx points at the app's log.
   */
  fail(action: string, method: string, path: string, { status, body, hint: hinted }: ControlResponse): never {
    const where = `${method} ${new URL(path, this.#baseURL).href}`;
    const serverError = isRecord(body) && typeof body.error === 'string' ? body.error : undefined;
    const hint = hinted === undefined ? '' : ` ${hinted}`;
    const details = isRecord(body) && body.details !== undefined ? ` Details: ${JSON.stringify(body.details)}` : '';
    const pathname = path.split('?')[0]!;
    if (status === 404 && serverError === undefined && this.#servedPath !== undefined && this.#servedPath !== pathname) {
      throw new HarnessError(
        'INVALID_OPTIONS',
        `Failed to ${action}: ${where} answered 404, while ${this.#servedPath} on the same app answered: the harness is on, but nothing in the app serves ${pathname}. ${MISSING_ROUTE_REMEDY}`,
      );
    }
    if (status === 404 && serverError === undefined) {
      throw new HarnessError(
        'INVALID_OPTIONS',
        `Failed to ${action}: ${where} answered 404. Check that the app runs with the harness enabled (createHarness({ enabled: true })) and that ${this.#wording.endpoints} matches its endpoints (on Next.js, that each has its route file).`,
      );
    }
    const said = serverError ?? (typeof body === 'string' && body !== '' ? body.slice(0, 200) : '(no body)');
    const message = `Failed to ${action}: ${where} answered ${status}: ${said}${hint}${details}`;
    if (status === 400 && /not found/i.test(said)) throw new HarnessError('UNKNOWN_SCENARIO', message);
    if (status >= 400 && status < 500) throw new HarnessError('INVALID_ARGUMENT', message);
    throw new Error(`${message} See the app's log for the cause.`);
  }

  #url(action: string, path: string): string {
    if (this.#baseURL === undefined || this.#baseURL === '') {
      throw new HarnessError('INVALID_OPTIONS', `Failed to ${action}: no baseURL. ${this.#wording.baseURL}.`);
    }
    return new URL(path, this.#baseURL).href;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
