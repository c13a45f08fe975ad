import type { MockResponse, MockSequence } from '../core/types.js';
import { canonicalJson } from './plain-data.js';
import { isRecordedStream } from './recorded-stream.js';

/** A response as compared for folding: a recorded stream's chunk times left out (they differ on every call). */
function comparable(response: MockResponse): string {
  const { stream } = response;
  return canonicalJson(isRecordedStream(stream) ? { ...response, stream: { ...stream, chunks: stream.chunks.map(({ text }) => text) } } : response);
}

/** One mock's answers: a single `response`, or a `sequence`, and how repeated answers were folded. */
export interface CollapsedResponses {
  response?: MockResponse;
  sequence?: MockSequence;
  /** `4 calls → 2 responses: the last 3 were identical, kept once and repeated (repeat: "last")`; `undefined` when nothing was folded. */
  note: string | undefined;
}

/**
 * The answers of the calls to one request key, in order. Identical answers at the end fold into
 * one final step, which `repeat: 'last'` keeps giving: replay answers exactly as recorded. Two
 * recorded streams with the same chunks are identical whatever their times (the first one's are kept).
 * Identical answers earlier on stay (a poll that says "pending" twice, then "done", must still
 * say "pending" twice). All answers identical: one `response`.
 */
export function collapseResponses(responses: readonly MockResponse[]): CollapsedResponses {
  const texts = responses.map(comparable);
  let end = responses.length;
  while (end > 1 && texts[end - 1] === texts[end - 2]) end--;
  const trailing = responses.length - end + 1;
  const note = trailing > 1 ? `${responses.length} calls → ${end} response${end === 1 ? '' : 's'}: the last ${trailing} were identical, kept once${end === 1 ? '' : ' and repeated (repeat: "last")'}` : undefined;
  if (end === 1) return { response: responses[0], note };
  return { sequence: { responses: responses.slice(0, end), repeat: 'last' }, note };
}
