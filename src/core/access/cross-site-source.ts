import { hostOf } from './host-of.js';

/** What a browser said about where a request comes from; every field as the header has it, `null` when absent. */
export interface RequestSource {
  secFetchSite: string | null;
  origin: string | null;
  /** The request's `Host` (or its URL's host when no header came). */
  host: string | null;
}

/** Sec-Fetch-Site values that mean the app's own site, or a person typing the URL. */
const OWN_SITE = new Set(['same-origin', 'same-site', 'none']);

/**
 * Why a browser sent this request from another site, or `undefined` when it did not: a
 * `Sec-Fetch-Site: cross-site`, or (from a browser that sends no Sec-Fetch-Site) an `Origin`
 * that is not the request's own host. A request with neither header (curl, Node clients,
 * Playwright's `request`) is no browser's, so it passes.
 *
 * @note Sec-Fetch-Site decides when present: a page cannot forge it, and it knows better than
 * `Origin` does behind a dev proxy that rewrites Host (Vite's `changeOrigin`), where the page's
 * own request is `same-origin` but its Origin and the Host differ.
 * @see https://www.w3.org/TR/fetch-metadata/
 *
 * @example
 * crossSiteSource({ secFetchSite: null, origin: 'http://evil.example', host: 'localhost:3000' });
 * // 'its Origin is http://evil.example, not this app (localhost:3000)'
 */
export function crossSiteSource({ secFetchSite, origin, host }: RequestSource): string | undefined {
  const site = secFetchSite?.trim().toLowerCase();
  if (site !== undefined && OWN_SITE.has(site)) return undefined;
  if (site === 'cross-site') return `the browser marked it Sec-Fetch-Site: cross-site${origin === null ? '' : ` (Origin: ${shown(origin)})`}`;
  if (origin === null) return undefined;
  // An opaque origin: a sandboxed frame, a file:// or data: page, a redirect across sites.
  if (origin.trim() === 'null') return 'its Origin is "null" (a sandboxed frame, a file:// page or a redirect from another site)';
  const from = originHost(origin);
  const to = host === null ? undefined : hostOf(host);
  if (from !== undefined && to !== undefined && from.hostname === to.hostname && from.port === (to.port ?? from.defaultPort)) return undefined;
  return `its Origin is ${shown(origin)}, not this app (${host === null ? 'no Host' : shown(host)})`;
}

function originHost(origin: string): { hostname: string; port: number; defaultPort: number } | undefined {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  const defaultPort = url.protocol === 'https:' ? 443 : url.protocol === 'http:' ? 80 : -1;
  return { hostname: url.hostname.toLowerCase(), port: url.port === '' ? defaultPort : Number(url.port), defaultPort };
}

/** A header value as a message shows it: at most 200 characters, printable ASCII. */
export function shown(value: string): string {
  const printable = value.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 200 ? `${printable.slice(0, 200)}…` : printable;
}
