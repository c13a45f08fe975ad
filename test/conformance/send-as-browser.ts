import { request } from 'node:http';
import type { RawAnswer } from './raw-request.js';

/**
 * Send a request as a browser would, with headers `fetch` keeps for itself (`Host`, `Origin`,
 * `Sec-Fetch-Site`) set by hand: a page on another site, or one that reached the app through DNS
 * rebinding (same connection, another `Host`).
 */
export function sendAsBrowser(url: string, { method = 'GET', host, headers = {}, body }: { method?: string; host?: string; headers?: Record<string, string>; body?: string }): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const lines = Object.entries({ host: host ?? target.host, ...headers }).flat();
    const sent = request({ hostname: target.hostname, port: target.port, method, path: `${target.pathname}${target.search}`, headers: lines }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}
