import type { BrowserContext, Route } from '@playwright/test';
import type { BrowserCallAnswer } from '../client/browser-call.js';
import { consoleLogger } from '../core/dev-utils.js';
import { HarnessError } from '../core/errors.js';
import { answerSocketRoute } from './route-browser-sockets.js';

/** `use.harnessBrowser`: route the page's calls to other origins (or only these) through the app. */
export type HarnessBrowserOption = boolean | { origins: string[] };

/** What answers a routed call: the test's harness client. */
interface Answerer {
  answer(call: { method: string; url: string; headers: Record<string, string>; bodyBase64?: string }): Promise<BrowserCallAnswer>;
}

/** The Playwright abort code each fault fails a call with, as the browser reports a real one. */
const FAULT_ABORTS = { network: 'connectionrefused', reset: 'connectionreset', timeout: 'timedout' } as const;

/** Which URLs are routed: those of the listed origins, else every http(s) origin but the app's. */
export function routedUrls(option: Exclude<HarnessBrowserOption, false>, baseURL: string | undefined): (url: URL) => boolean {
  if (option === true) {
    if (baseURL === undefined || baseURL === '') {
      throw new HarnessError('INVALID_OPTIONS', "Failed to route the browser's calls (use.harnessBrowser): no baseURL, so the app's own origin is unknown and nothing could answer them. Set use.baseURL in playwright.config.ts to the app's origin.");
    }
    const app = new URL(baseURL).origin;
    return (url) => (url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== app;
  }
  if (typeof option !== 'object' || option === null || !Array.isArray(option.origins)) {
    throw new HarnessError('INVALID_OPTIONS', `Expected use.harnessBrowser to be true, false or { origins: ['https://maps.example.test'] }, instead got ${JSON.stringify(option)}.`);
  }
  const origins = new Set(
    option.origins.map((origin) => {
      try {
        return new URL(origin).origin;
      } catch {
        throw new HarnessError('INVALID_OPTIONS', `Expected every entry of use.harnessBrowser.origins to be an origin such as 'https://maps.example.test', instead got ${JSON.stringify(origin)}.`);
      }
    }),
  );
  return (url) => origins.has(url.origin);
}

/** The request's headers for the app: HTTP/2 pseudo-headers (`:authority`) are no headers to replay. */
function headersOf(all: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(all).filter(([name]) => !name.startsWith(':')));
}

async function answerRoute(route: Route, harness: Answerer): Promise<void> {
  const request = route.request();
  const body = request.postDataBuffer();
  let answer: BrowserCallAnswer;
  try {
    answer = await harness.answer({ method: request.method(), url: request.url(), headers: headersOf(await request.allHeaders()), ...(body === null || body.length === 0 ? {} : { bodyBase64: body.toString('base64') }) });
  } catch (error) {
    // @note The app could not answer (it stopped, the test is ending): the call fails rather than reach the network.
    consoleLogger.warn(`${(error as Error).message} The browser's call fails (aborted).`);
    await route.abort('failed').catch(() => {});
    return;
  }
  if (!answer.answered) {
    // 'error' means the call never leaves the machine; 'warn' and 'bypass' let the page's other routes or the network have it.
    await (answer.action === 'abort' ? route.abort('blockedbyclient') : route.fallback());
    return;
  }
  // Only a WebSocket's URL gets a socket to relay to (route-browser-sockets.ts).
  if (answer.socket !== undefined) return void (await route.abort('failed'));
  if (answer.fault === 'network' || answer.fault === 'reset' || answer.fault === 'timeout') {
    await route.abort(FAULT_ABORTS[answer.fault]);
    return;
  }
  await route.fulfill({ status: answer.status, headers: answer.headers, body: Buffer.from(answer.bodyBase64, 'base64') });
}

/**
 * Send the page's calls to other origins (or to the listed ones) to the app's answer endpoint,
 * so the test's session answers them as it answers the app's own calls.
 * @note `context.route`, not `page.route`: popups and every page of the test are covered. The
 * page's own `page.route` handlers run first; `route.fallback()` hands a call they left to the network.
 * https://playwright.dev/docs/api/class-browsercontext#browser-context-route
 */
export async function routeBrowserCalls(context: Pick<BrowserContext, 'route' | 'routeWebSocket'>, option: Exclude<HarnessBrowserOption, false>, baseURL: string | undefined, harness: Answerer): Promise<void> {
  const routed = routedUrls(option, baseURL);
  await context.route(routed, (route) => answerRoute(route, harness));
  // The page's WebSockets to the same origins (ws: as http:, wss: as https:): answered by the test's socket mocks.
  // @note routeWebSocket came with Playwright 1.48; on an older one the page's sockets go out as made.
  if (typeof context.routeWebSocket !== 'function') return;
  await context.routeWebSocket((url) => routed(new URL(url.href.replace(/^ws/, 'http'))), (route) => answerSocketRoute(route, harness));
}
