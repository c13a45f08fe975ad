import { get } from 'node:http';
import { upstreamUrl } from './upstream';

/** The same greeting through node:http instead of fetch (what axios and got use underneath). */
export function nodeHttpGreeting(): Promise<string> {
  return new Promise((resolve, reject) => {
    get(upstreamUrl('/upstream/greeting'), (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve((JSON.parse(body) as { greeting: string }).greeting));
    }).on('error', reject);
  });
}
