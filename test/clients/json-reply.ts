/** A reply body as JSON when it parses, else the text (an HTML error page, an empty body). */
export function jsonReply(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The headers and body a client sends for a call with an optional JSON body. */
export function jsonRequest(body: unknown): { headers: Record<string, string>; body: string | undefined } {
  return body === undefined ? { headers: {}, body: undefined } : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
