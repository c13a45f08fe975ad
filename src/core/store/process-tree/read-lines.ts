/** What `readLines` calls, and the longest line it takes (which may change between lines: a greeting is short, a call may be long). */
export interface LineHandlers {
  /** The most bytes one line may have, read before each line. */
  maxBytes(): number;
  /** One complete line, without its newline (empty lines are skipped). */
  onLine(line: string): void;
  /** The peer sent a line longer than `maxBytes()`, or `onLine` threw: the caller ends the connection. */
  onRefused(reason: string): void;
}

const NEWLINE = 0x0a;

/**
 * Calls `onLine` with each complete line `socket` receives. Each chunk is scanned once, from its
 * own start (a partial line is kept as the chunks it came in, joined only when its newline
 * arrives), so a long line costs time and memory linear in its length. A partial line that
 * outgrows `maxBytes()` is dropped at once, and nothing after it is read. UTF-8 never has the
 * newline byte inside a character, so splitting bytes on it never splits a character.
 *
 * Nothing a peer sends may throw out of here: an exception would reach the process (a socket's
 * `data` listener has no one to catch it) and end the app. So `onLine` throwing refuses the
 * connection too.
 */
export function readLines(socket: NodeJS.ReadableStream & { readonly destroyed: boolean }, { maxBytes, onLine, onRefused }: LineHandlers): void {
  let held: Buffer[] = [];
  let heldBytes = 0;
  let refused = false;

  const refuse = (reason: string) => {
    refused = true;
    held = [];
    heldBytes = 0;
    onRefused(reason);
  };

  socket.on('data', (chunk: Buffer) => {
    if (refused) return;
    let start = 0;
    let newline = chunk.indexOf(NEWLINE);
    while (newline !== -1) {
      const tail = chunk.subarray(start, newline);
      if (heldBytes + tail.length > maxBytes()) return refuse(`a line longer than ${maxBytes()} bytes`);
      const bytes = heldBytes === 0 ? tail : Buffer.concat([...held, tail], heldBytes + tail.length);
      held = [];
      heldBytes = 0;
      if (bytes.length > 0) {
        try {
          onLine(bytes.toString('utf8'));
        } catch (error) {
          return refuse(`a line that could not be handled (${error instanceof Error ? error.message : String(error)})`);
        }
      }
      // The line closed the connection (a refused greeting): read nothing more of what came with it.
      if (socket.destroyed) return;
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) {
      held.push(chunk.subarray(start));
      heldBytes += chunk.length - start;
      if (heldBytes > maxBytes()) refuse(`a line longer than ${maxBytes()} bytes`);
    }
  });
}
