/**
 * Bodies whose text the code that built the Request or Response already holds.
 * @note Reading a Fetch body goes through web streams, which costs more than the rest of a
 * control request together. Node adapters (a body a parser already read) and the control
 * endpoints (their own JSON answers) hand the text over beside the message instead; the
 * message's own body stays intact for anyone who reads it the usual way.
 */
const known = new WeakMap<Request | Response, string>();

/** Remember `text` as the body of `message`, and return `message`. */
export function withKnownBody<M extends Request | Response>(message: M, text: string): M {
  known.set(message, text);
  return message;
}

/** The body text handed over with `message`, or `undefined` when it must be read. */
export function knownBodyOf(message: Request | Response): string | undefined {
  return known.get(message);
}
