import { compileBodyMatch } from '../core/engine/body-match.js';
import { HarnessError } from '../core/errors.js';
import type { JournalEntry } from '../core/journal/journal-entry.js';
import type { SocketMatch } from '../core/types.js';

/** A `SocketMatch` as the client tests journal entries with it, and how messages name it. */
export interface FrameMatch {
  description: string;
  test(entry: JournalEntry): boolean;
}

function describeMatch(match: SocketMatch): string {
  if ('json' in match) return `a JSON frame containing ${JSON.stringify(match.json)}`;
  if ('text' in match) return `the text frame ${JSON.stringify(match.text)}`;
  if ('regex' in match) return `a text frame matching /${typeof match.regex === 'string' ? match.regex : `${match.regex.source}/${match.regex.flags ?? ''}`}`.replace(/\/$/, '/');
  return `the binary frame ${match.binary}`;
}

/**
 * Compile a frame match (the socket mocks' `match`: `{ json }` subset, `{ text }`, `{ regex }` or
 * `{ binary }` base64) for journal entries, whose `socket.data` is a text frame's text or a binary
 * frame's base64. A cut frame (`dataTruncated`) never matches.
 */
export function compileFrameMatch(match: SocketMatch, where: string): FrameMatch {
  const fail = () => {
    throw new HarnessError('INVALID_ARGUMENT', `Invalid frame match for ${where}: expected { json: <subset> }, { text: <string> }, { regex: <source> | { source, flags? } } or { binary: <base64> }, instead got ${JSON.stringify(match) ?? typeof match}.`);
  };
  if (typeof match !== 'object' || match === null || Object.keys(match).length !== 1) fail();
  const frame = (entry: JournalEntry) => (entry.kind === 'socket.frame' && entry.socket?.dataTruncated !== true ? entry.socket : undefined);
  const description = describeMatch(match);
  if ('json' in match) {
    const body = compileBodyMatch(match.json, 'json');
    return {
      description,
      test(entry) {
        const socket = frame(entry);
        if (socket?.opcode !== 'text' || socket.data === undefined) return false;
        try {
          return body.test(JSON.parse(socket.data) as unknown);
        } catch {
          return false;
        }
      },
    };
  }
  if ('text' in match) return { description, test: (entry) => frame(entry)?.opcode === 'text' && frame(entry)?.data === match.text };
  if ('regex' in match) {
    const { source, flags } = typeof match.regex === 'string' ? { source: match.regex, flags: undefined } : match.regex;
    let regex: RegExp;
    try {
      regex = new RegExp(source, flags?.replace(/[gy]/g, ''));
    } catch (error) {
      throw new HarnessError('INVALID_ARGUMENT', `Invalid frame match for ${where}: the regex is not valid (${(error as Error).message}).`);
    }
    return { description, test: (entry) => frame(entry)?.opcode === 'text' && regex.test(frame(entry)!.data ?? '') };
  }
  if ('binary' in match) return { description, test: (entry) => frame(entry)?.opcode === 'binary' && frame(entry)?.data === match.binary };
  return fail();
}
