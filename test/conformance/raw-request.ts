import { request } from 'node:http';

/** An answer read whole. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * Send a request with its header lines exactly as given, repeats included (`fetch` would join a
 * repeated header into one line). node:http adds no Host to a raw header list, so the URL's is
 * added here unless the lines name one.
 */
export function rawRequest(url: string, method: string, lines: [string, string][], body?: string): Promise<RawAnswer> {
  const { hostname, port, pathname, search, host } = new URL(url);
  const hasHost = lines.some(([name]) => name.toLowerCase() === 'host');
  return new Promise((resolve, reject) => {
    // A connection of its own (agent: false): the global agent keeps connections alive, and a fixture
    // that takes a free port may get the port of an app an earlier suite closed, whose pooled
    // connection then answers "socket hang up" (a CI replica's Elysia cross-site suite did).
    const sent = request({ hostname, port, method, path: `${pathname}${search}`, agent: false, headers: hasHost ? lines.flat() : ['host', host, ...lines.flat()] }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}
