import { rawRequest, type RawAnswer } from './raw-request.js';

/**
 * Send a request as a browser would, with headers `fetch` keeps for itself (`Host`, `Origin`,
 * `Sec-Fetch-Site`) set by hand: a page on another site, or one that reached the app through DNS
 * rebinding (same connection, another `Host`).
 */
export function sendAsBrowser(url: string, { method = 'GET', host, headers = {}, body }: { method?: string; host?: string; headers?: Record<string, string>; body?: string }): Promise<RawAnswer> {
  return rawRequest(url, method, Object.entries({ host: host ?? new URL(url).host, ...headers }), body);
}
