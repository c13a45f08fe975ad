import { quote } from '../dev-utils.js';
import { HINT_HEADER } from '../constants.js';
import { jsonAnswer, type ControlAnswer, type ControlCall } from './control-call.js';
import { hintHeaderValue } from './hint-header.js';

/**
 * Whether the app behind the server that got a control request answers its own pages yet; if not,
 * `reason` says what it answered instead (a 503 loading screen, no answer).
 */
export type AppReadiness = { ready: true } | { ready: false; reason: string };

/** Asks the app's own server for the page `path`, waiting a little for the answer. */
export type AppReadinessCheck = (path: string) => Promise<AppReadiness>;

/** Printable ASCII without spaces, starting with one `/` (not `//`, which reads as a host). */
const READY_PATH = /^\/(?!\/)[\x21-\x7e]*$/;

/**
 * The catalogue's `?ready` form (`GET /__harness__/scenarios?ready`, or `?ready=/health` for
 * another page): `undefined` when the app serves, or when nothing can tell (`call.appReadiness`
 * is set only where the control endpoints answer before the app's own handler exists:
 * whole-process scoping); else the answer to give instead: the 503 that says what it waits for, or the 400
 * for a path it cannot ask.
 * @note A CLI that owns the port while it builds (`nuxt dev`) has the harness answer at once
 * and every page a loading screen for seconds more: readiness must come from a page, not from
 * the harness (issue 42, item 1).
 */
export async function appReadinessAnswer(call: ControlCall, value: string, scenariosPath: string, isControlPath: (pathname: string) => boolean): Promise<{ answer: ControlAnswer } | undefined> {
  const path = value === '' ? '/' : value;
  if (!READY_PATH.test(path)) {
    return { answer: jsonAnswer({ error: `Invalid ready path ${JSON.stringify(value)}: expected a page of the app, a path that starts with one "/" and has no spaces (${scenariosPath}?ready=/health), or nothing for "/".` }, 400) };
  }
  const pathname = path.split('?')[0]!;
  if (isControlPath(pathname)) {
    return { answer: jsonAnswer({ error: `Invalid ready path ${quote(path)}: it is a control path, which the harness answers itself. Name a page of the app (${scenariosPath}?ready=/health), or nothing for "/".` }, 400) };
  }
  if (call.appReadiness === undefined) return undefined;
  const readiness = await call.appReadiness(path);
  if (readiness.ready) return undefined;
  const hint = `${scenariosPath}?ready answers 200 from the first time GET ${path} on this server answers below 500, which means the app serves its pages: a loading screen while the app builds is a 503, and so is an error. Name another page with ?ready=/path.`;
  return { answer: jsonAnswer({ error: `The app is not serving yet: ${readiness.reason}.` }, 503, { [HINT_HEADER]: hintHeaderValue(hint), 'retry-after': '1' }) };
}
