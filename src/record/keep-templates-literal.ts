import type { MockResponse } from '../core/types.js';
import { leafTexts } from './plain-data.js';
import type { BodyKind } from './response-draft.js';

/** Scenario files read `{{…}}` in response strings as templates; recorded data must come back as it was. */
const TEMPLATE_OPEN = '{{';

function encodeEvents(events: NonNullable<NonNullable<MockResponse['stream']>['events']>): string {
  return events
    .map(({ event, id, data }) => {
      const lines = [event !== undefined ? `event: ${event}` : '', id !== undefined ? `id: ${id}` : ''].filter(Boolean);
      for (const line of (typeof data === 'string' ? data : JSON.stringify(data)).split('\n')) lines.push(`data: ${line}`);
      return `${lines.join('\n')}\n\n`;
    })
    .join('');
}

const DEFAULT_TYPES: Partial<Record<BodyKind, string>> = { json: 'application/json', text: 'text/plain; charset=utf-8', events: 'text/event-stream' };

/**
 * A recorded response whose text holds `{{` (a Handlebars page, a docs string) is kept as
 * `bodyBase64` with its content type, so it is sent back byte for byte instead of being read
 * as a template; a header holding `{{` is left out. Says what it did in `notes`.
 */
export function keepTemplatesLiteral(response: MockResponse, kind: BodyKind, notes: string[]): MockResponse {
  let out = response;
  if (response.headers !== undefined && Object.values(response.headers).some((value) => value.includes(TEMPLATE_OPEN))) {
    const headers = Object.fromEntries(Object.entries(response.headers).filter(([, value]) => !value.includes(TEMPLATE_OPEN)));
    notes.push(`response.headers: ${Object.keys(response.headers).filter((name) => !(name in headers)).join(', ')} left out: the value holds "{{", which scenario files read as a template`);
    out = { ...out, headers };
  }
  const texts = kind === 'events' ? leafTexts(response.stream?.events) : leafTexts(response.body);
  if (!texts.some((text) => text.includes(TEMPLATE_OPEN))) return out;
  const text = kind === 'events' ? encodeEvents(response.stream!.events!) : typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
  const { body: _body, stream: _stream, ...rest } = out;
  const headers = { ...rest.headers };
  if (headers['content-type'] === undefined && DEFAULT_TYPES[kind] !== undefined) headers['content-type'] = DEFAULT_TYPES[kind]!;
  notes.push('response.body: holds "{{", which scenario files read as a template: kept as bodyBase64 so it is sent back as recorded');
  return { ...rest, headers, bodyBase64: Buffer.from(text, 'utf8').toString('base64') };
}
