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

/** What a refusal was for; each kind is logged once. */
type RefusalKind = 'host' | 'unreadable-host' | 'cross-site';

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
 * that is not loopback, an IP address or in `control.allowedHosts`, or that is no host name at
 * all. A request without a `Host` (HTTP/1.0, a Request built in process) passes. With `access` set and no
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
  const logged = new Set<RefusalKind>();
  // Once per kind: the app's log then says why the tests' calls fail, without one line per call.
  const logOnce = (kind: RefusalKind, message: string) => {
    if (logged.has(kind)) return;
    logged.add(kind);
    logger.warn(`${message} (Logged once.)`);
  };

  return (call) => {
    // @note Without a Host header (or with an empty one, RFC 9112's "no authority") the request
    // came from no browser: every browser sends the host of the page's URL. A Host the parser
    // cannot read is refused, though: browsers send names such as evil$.example or ev!l.example
    // (the URL standard allows those characters), and a rebinding page can live at one (issue 37.4).
    const sent = call.header('host');
    const host = sent === null || sent.trim() === '' ? null : sent;
    const parts = allowedHosts === '*' || host === null ? undefined : hostOf(host);
    if (host !== null && allowedHosts !== '*' && parts === undefined) {
      logOnce('unreadable-host', `Refused ${call.method} ${call.pathname} addressed to Host ${JSON.stringify(shown(host))} with 403: it is not a host name. Address the app by localhost, 127.0.0.1, [::1], its IP address or a name in control.allowedHosts.`);
      return refuse(
        `Host not allowed: this control request was addressed to ${JSON.stringify(shown(host))}, which is not a host name (letters, digits, "-", "_" and dots, an IPv4 address or a bracketed IPv6 address, with an optional port). The control endpoints of this app answer only loopback (localhost, 127.0.0.1, ::1), IP addresses and the names in control.allowedHosts: address the app by one of them.`,
        `${WHY} A browser sends such a name when a page lives at it; a client outside a browser should send the host of the URL the app listens on, or no Host at all over HTTP/1.0.`,
      );
    }
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
