import { HINT_HEADER } from '../constants.js';
import type { Logger } from '../dev-utils.js';
import { jsonAnswer, type ControlAnswer, type ControlCall } from '../control/control-call.js';
import { hintHeaderValue } from '../control/hint-header.js';
import type { HarnessControlOptions } from '../types.js';
import { compileAllowedHosts } from './allowed-host.js';
import { crossSiteSource, shown } from './cross-site-source.js';
import { hostOf } from './host-of.js';

/** A control call's refusal (403), or `undefined` when it may go on. */
export type OriginCheck = (call: ControlCall) => ControlAnswer | undefined;

const WHY = 'A page on another site (or one that reached this app through DNS rebinding) could otherwise switch scenarios, start recordings and read journals in the browser of whoever opens it.';
const NOT_BROWSERS = 'Tests and tools outside a browser (the client, the Playwright fixture, curl) send no Origin and are never refused for it.';

/** The host a Request built by hand (no Host header) is for: its URL's, `null` when it has none. */
function urlHost(call: ControlCall): string | null {
  try {
    return new URL(call.toRequest().url).host || null;
  } catch {
    return null;
  }
}

function refuse(error: string, hint: string): ControlAnswer {
  return jsonAnswer({ error }, 403, { [HINT_HEADER]: hintHeaderValue(hint) });
}

/**
 * The browser check run before any control endpoint answers (decisions/cross-site-control-requests.md):
 * a request a browser sent from another site is refused, and so is one addressed to a `Host`
 * that is not loopback, an IP address or in `control.allowedHosts`. With `access` set and no
 * `allowedHosts`, any Host is answered: the credential is what a rebinding page cannot send.
 *
 * @example
 * const check = createOriginCheck({ allowedHosts: ['harness'] }, { accessSet: false, logger });
 * const refusal = check(call); // a 403 answer, or undefined: go on
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/reliability-and-security.md#cross-site-requests-and-dns-rebinding
 */
export function createOriginCheck(control: HarnessControlOptions | undefined, { accessSet, logger }: { accessSet: boolean; logger: Logger }): OriginCheck {
  const allowCrossSite = control?.allowCrossSite === true;
  const allowedHosts = control?.allowedHosts ?? (accessSet ? '*' : []);
  const isAllowed = compileAllowedHosts(allowedHosts);
  const logged = new Set<'host' | 'cross-site'>();
  // Once per kind: the app's log then says why the tests' calls fail, without one line per call.
  const logOnce = (kind: 'host' | 'cross-site', message: string) => {
    if (logged.has(kind)) return;
    logged.add(kind);
    logger.warn(`${message} (Logged once.)`);
  };

  return (call) => {
    // @note Without a Host header, or with one that is no host name, the request came from no
    // browser (every browser sends the host of the page's URL): a Request built in process for
    // harness.handle(), or a hand-made one. DNS rebinding cannot produce either.
    const host = call.header('host');
    const parts = allowedHosts === '*' || host === null ? undefined : hostOf(host);
    if (host !== null && parts !== undefined && !isAllowed(parts)) {
      const name = parts.hostname;
      const error = `Host not allowed: this control request was addressed to ${JSON.stringify(shown(host))}, and the control endpoints of this app answer only loopback (localhost, 127.0.0.1, ::1), IP addresses and the names in control.allowedHosts. If the tests reach the app by this name, allow it: createHarness({ control: { allowedHosts: [${JSON.stringify(name)}] } }).`;
      logOnce('host', `Refused ${call.method} ${call.pathname} addressed to Host ${JSON.stringify(shown(host))} with 403: allow the name with createHarness({ control: { allowedHosts: [${JSON.stringify(name)}] } }), scenario-harness serve --allowed-host ${name}, or HARNESS_ALLOWED_HOSTS=${name} under scenario-harness/register.`);
      return refuse(
        error,
        `${WHY} scenario-harness serve: --allowed-host ${name} (or HARNESS_ALLOWED_HOSTS=${name}); scenario-harness/register: HARNESS_ALLOWED_HOSTS=${name}. A harness with access: { token } answers any Host unless allowedHosts is given.`,
      );
    }
    if (allowCrossSite) return undefined;
    const source = crossSiteSource({ secFetchSite: call.header('sec-fetch-site'), origin: call.header('origin'), host: host ?? urlHost(call) });
    if (source === undefined) return undefined;
    logOnce('cross-site', `Refused ${call.method} ${call.pathname} from a browser on another site with 403: ${source}. control: { allowCrossSite: true } allows such requests.`);
    return refuse(
      `Cross-site request refused: ${source}, and the control endpoints of this app answer only its own pages and clients outside a browser. To allow requests from other sites, create the harness with control: { allowCrossSite: true }.`,
      `${WHY} ${NOT_BROWSERS} scenario-harness serve: --allow-cross-site; scenario-harness/register: HARNESS_ALLOW_CROSS_SITE=true.`,
    );
  };
}
