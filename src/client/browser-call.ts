/** A call a test's browser made, as `answer()` sends it to the app (`POST /__harness__/answer`). */
export interface BrowserCallRequest {
  /** `GET`, `POST`, `OPTIONS` (a CORS preflight)… */
  method: string;
  /** The absolute URL the page called: `https://maps.example.test/v1/geocode?q=Paris`, or a WebSocket's `wss://…` URL. */
  url: string;
  /** The request's headers as the browser sent them (names in any case); `origin` decides the CORS answer. */
  headers: Record<string, string>;
  /** The body's bytes in base64; leave it out for a call without a body. */
  bodyBase64?: string;
}

/** How the app answered a browser's call: fulfil it, make it fail, or decide by `action`. */
export type BrowserCallAnswer =
  | {
      answered: true;
      status: number;
      /** Lower-case names, CORS headers included (unless the mock set its own). */
      headers: Record<string, string>;
      /** The whole body in base64 (a mocked stream joined). */
      bodyBase64: string;
      /**
       * The mock's `error`: `'network'`, `'reset'` and `'timeout'` mean the call must fail
       * (abort the route: connection refused, reset, timed out) and `status`, `headers` and the
       * body are no answer; `'malformed'` comes with the cut body, to be fulfilled as it is.
       */
      fault?: 'network' | 'reset' | 'timeout' | 'malformed';
      /**
       * A page's WebSocket (a `ws:`/`wss:` URL) a socket mock answers (`status` 101, no body):
       * where to relay it, a `ws://127.0.0.1:<port>/…` URL of the app's socket bridge, on the
       * app's machine.
       */
      socket?: string;
    }
  | {
      answered: false;
      /**
       * What the app's `unhandled` says: `'abort'` (`'error'`) fails the call, so it never
       * reaches the network; `'continue'` (`'warn'`, `'bypass'`, an allowed host) lets it go on.
       */
      action: 'abort' | 'continue';
      /** Why the call is aborted: the app's message, with the nearest mocks. */
      error?: string;
    };

/** True when `value` has the shape of an answer (what the client checks before handing it over). */
export function isBrowserCallAnswer(value: unknown): value is BrowserCallAnswer {
  if (typeof value !== 'object' || value === null) return false;
  const answer = value as Record<string, unknown>;
  if (answer.answered === false) return answer.action === 'abort' || answer.action === 'continue';
  return answer.answered === true && typeof answer.status === 'number' && typeof answer.headers === 'object' && answer.headers !== null && typeof answer.bodyBase64 === 'string';
}
