import { isPaced, type MockReply } from '../interception/mock-reply.js';

/** The instant copy of each shared (frozen) reply, made once. */
const copies = new WeakMap<MockReply, MockReply>();

/**
 * A reply with every wait taken out, for `timing: 'instant'` (`HARNESS_TIMING=instant`): no
 * `delay`, and its stream's chunks all due at once. The fault stays (`'timeout'` still never
 * answers), and so do `failAfter` and the stream's `hold`.
 */
export function instantReply(reply: MockReply): MockReply {
  const { stream } = reply;
  const paced = stream !== undefined && isPaced(stream);
  if (reply.delay === 0 && !paced) return reply;
  const known = copies.get(reply);
  if (known !== undefined) return known;
  let unpaced = stream;
  if (paced) {
    const { schedule: _schedule, ...rest } = stream;
    unpaced = { ...rest, intervalMs: 0 };
  }
  const copy: MockReply = { ...reply, delay: 0, stream: unpaced };
  if (Object.isFrozen(reply)) copies.set(reply, Object.freeze(copy));
  return copy;
}
