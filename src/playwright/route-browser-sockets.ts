import type { WebSocketRoute } from '@playwright/test';
import WebSocket from 'ws';
import type { BrowserCallAnswer } from '../client/browser-call.js';
import { consoleLogger } from '../core/dev-utils.js';

/** What answers a routed socket: the test's harness client. */
interface Answerer {
  answer(call: { method: string; url: string; headers: Record<string, string> }): Promise<BrowserCallAnswer>;
}

/** A close code the page may be given (RFC 6455 §7.4): 1005 and 1006 are no codes to send. */
function sendableCode(code: number): number | undefined {
  return code === 1005 || code === 1006 ? undefined : code;
}

/**
 * Relay the page's socket to the socket mock that runs at the app's bridge, frame for frame,
 * both ways, with each side's close passed to the other. Frames the page sends before the
 * bridge is open wait for it.
 */
function relay(route: WebSocketRoute, bridgeUrl: string): void {
  const bridge = new WebSocket(bridgeUrl);
  const waiting: (string | Buffer)[] = [];
  route.onMessage((message) => {
    if (bridge.readyState === WebSocket.OPEN) bridge.send(message);
    else waiting.push(message);
  });
  route.onClose((code, reason) => {
    if (bridge.readyState === WebSocket.OPEN || bridge.readyState === WebSocket.CONNECTING) bridge.close(code === undefined ? 1000 : (sendableCode(code) ?? 1000), reason);
  });
  bridge.on('open', () => {
    for (const message of waiting.splice(0)) bridge.send(message);
  });
  bridge.on('message', (data, binary) => route.send(binary ? Buffer.from(data as Buffer) : String(data)));
  bridge.on('close', (code, reason) => void route.close({ code: sendableCode(code) ?? 1000, reason: reason.toString('utf8') }).catch(() => {}));
  bridge.on('error', (error) => {
    consoleLogger.warn(`[scenario-harness] The page's socket ${route.url()} could not reach the app's socket bridge (${error.message}): the app and the browser's test must share a machine. The socket is closed (1011).`);
    void route.close({ code: 1011, reason: 'the harness could not reach the app' }).catch(() => {});
  });
}

/**
 * A page's WebSocket (`context.routeWebSocket`), answered from the test's session: the app
 * decides it as it decides the app's own sockets (`side: 'browser'` in the journal); a socket
 * mock answers it through the app's bridge; else `unhandled` says whether it connects to the
 * real server or is refused.
 */
export async function answerSocketRoute(route: WebSocketRoute, harness: Answerer): Promise<void> {
  let answer: BrowserCallAnswer;
  try {
    // The subprotocols the page offered, where Playwright's route reports them: a socket mock with `protocol` answers only a page that offers it.
    const offered = (route as { protocols?: () => string[] }).protocols?.() ?? [];
    const headers: Record<string, string> = { upgrade: 'websocket', connection: 'Upgrade', ...(offered.length === 0 ? {} : { 'sec-websocket-protocol': offered.join(', ') }) };
    answer = await harness.answer({ method: 'GET', url: route.url(), headers });
  } catch (error) {
    consoleLogger.warn(`${(error as Error).message} The page's socket is closed (1011).`);
    await route.close({ code: 1011, reason: 'the harness could not answer' }).catch(() => {});
    return;
  }
  if (answer.answered && answer.socket !== undefined) return relay(route, answer.socket);
  if (!answer.answered && answer.action === 'continue') {
    // Connected with no handlers: Playwright forwards every frame both ways.
    route.connectToServer();
    return;
  }
  await route.close({ code: 1008, reason: 'refused by the harness (unhandled: error)' }).catch(() => {});
}
