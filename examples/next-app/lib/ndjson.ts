/**
 * A route handler's answer as NDJSON, one line at a time as `run` sends them: what an LLM SDK
 * hands the app (deltas, events), then `{ final }` with what `run` returned, or `{ error }` with
 * the SDK's error. The tests (test/adapters/next-llm.test.ts) read it line by line.
 */
export function ndjson(run: (send: (line: unknown) => void) => Promise<unknown>): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (line: unknown) => controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      try {
        send({ final: await run(send) });
      } catch (error) {
        send({ error: String((error as Error).stack ?? error) });
      }
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'application/x-ndjson' } });
}
