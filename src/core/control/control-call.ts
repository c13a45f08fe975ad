import type { AppReadinessCheck } from './app-readiness.js';
import { readJsonBody, discardBody, type JsonBodyResult } from './read-json-body.js';

/**
 * A control request as plain data: what the control endpoints read of it. Node adapters build
 * one straight from `IncomingMessage` (no Fetch Request, no web stream); Fetch-native hosts
 * (Hono, Next.js, `harness.handle()`) build one from their Request.
 */
export interface ControlCall {
  method: string;
  pathname: string;
  /** The query string, `?`-prefixed or empty (journal filters). */
  search: string;
  /** A request header by lower-case name, `null` when absent. */
  header(name: string): string | null;
  /** The body as JSON, read up to `limit` bytes (the rest dropped, never buffered). */
  readJson(limit: number): Promise<JsonBodyResult>;
  /** Drop a body nobody read, so the connection stays usable. */
  discard(): void;
  /** The call's method, URL and headers as a Fetch Request, without its body (built on demand, for `access.authorize`). */
  toRequest(): Request;
  /**
   * Whether the app behind the server this call came in on answers its pages yet (`?ready` on
   * the catalogue). Set only where the control endpoints answer before the app's own handler
   * (whole-process scoping); elsewhere the harness answering means the app does.
   */
  appReadiness?: AppReadinessCheck;
}

/** A control answer as plain data: every endpoint answers JSON text. */
export interface ControlAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** The JSON answer every control endpoint gives. */
export function jsonAnswer(body: unknown, status = 200, headers?: Record<string, string>): ControlAnswer {
  return { status, headers: { 'content-type': 'application/json', ...headers }, text: JSON.stringify(body) };
}

/** A `ControlCall` over a Fetch Request. */
export function controlCallFromRequest(request: Request, url = new URL(request.url)): ControlCall {
  return {
    method: request.method,
    pathname: url.pathname,
    search: url.search,
    header: (name) => request.headers.get(name),
    readJson: (limit) => readJsonBody(request, limit),
    discard: () => discardBody(request),
    // A copy without the body: what authorize reads of it cannot take the body from the endpoint.
    toRequest: () => new Request(request.url, { method: request.method, headers: request.headers }),
  };
}
