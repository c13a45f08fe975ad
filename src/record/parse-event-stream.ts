/** One Server-Sent Event as `stream.events` holds it. */
export interface RecordedEvent {
  event?: string;
  /** The data lines joined by `\n`, as text (the converter parses JSON data). */
  data: string;
  id?: string;
}

/**
 * A `text/event-stream` body as its events: `event:`, `data:` (several lines joined by `\n`) and
 * `id:` fields; comments (`:`) and `retry:` are dropped; an event without data is dropped,
 * as a browser's EventSource does.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
export function parseEventStream(text: string): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  for (const block of text.split(/\r\n\r\n|\n\n|\r\r/)) {
    let event: string | undefined;
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r\n|\n|\r/)) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') data.push(value);
      else if (field === 'event') event = value;
      else if (field === 'id') id = value;
    }
    if (data.length === 0) continue;
    events.push({ ...(event !== undefined && event !== 'message' ? { event } : {}), data: data.join('\n'), ...(id !== undefined ? { id } : {}) });
  }
  return events;
}
