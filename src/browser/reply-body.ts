import { replyHasBody, type MockReply } from '../core/interception/mock-reply.js';

const EMPTY = new Uint8Array(0);

/**
 * A reply's body as one buffer: a browser's route is fulfilled whole, so a stream is its chunks
 * joined (no pauses between them), and one cut by `failAfter` (or `error: 'malformed'`) is the
 * chunks before the cut.
 */
export function replyBody(reply: MockReply, method: string): Uint8Array {
  if (!replyHasBody(method, reply.status)) return EMPTY;
  if (reply.stream !== undefined) {
    const { chunks, failAfter } = reply.stream;
    return Buffer.concat(failAfter === undefined ? chunks : chunks.slice(0, failAfter));
  }
  if (reply.body === null) return EMPTY;
  return typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
}
