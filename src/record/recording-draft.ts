import type { RecordedExchange } from '../core/recording/recorded-exchange.js';
import type { RecordingDraft, RecordingOptions } from '../core/recording/recording-draft.js';
import type { RecordedExchange as ConverterExchange } from './recorded-exchange.js';

function bytesOf(part: { body?: string; bodyBase64?: string }): Uint8Array | string | undefined {
  return part.bodyBase64 !== undefined ? Buffer.from(part.bodyBase64, 'base64') : part.body;
}

/**
 * The draft scenario file made of a test's recorded calls, through the one traffic → scenario
 * converter (redaction, the leak check). The converter loads on first use only: an app that
 * never records never loads it. Throws `SECRET_LEAK` rather than return a file with a secret.
 */
export async function recordingDraft(exchanges: readonly RecordedExchange[], format: 'json' | 'yaml', options: RecordingOptions = {}): Promise<RecordingDraft> {
  const { scenarioFromTraffic } = await import('./scenario-from-traffic.js');
  const converted = await scenarioFromTraffic(
    exchanges.map(
      (exchange): ConverterExchange => ({
        request: { method: exchange.request.method, url: exchange.request.url, headers: exchange.request.headers, body: bytesOf(exchange.request) },
        response: {
          status: exchange.response.status,
          headers: exchange.response.headers,
          body: bytesOf(exchange.response),
          ...(exchange.response.chunks === undefined ? {} : { chunks: exchange.response.chunks.map((chunk) => ({ body: bytesOf(chunk) ?? '', atMs: chunk.atMs })) }),
        },
        ...(exchange.socket === undefined ? {} : { socket: exchange.socket }),
      }),
    ),
    { name: 'Recorded', ...(options.secrets === undefined ? {} : { secrets: options.secrets }), ...(options.redact === undefined ? {} : { redact: options.redact }) },
  );
  return { scenarios: converted.scenarios, redactions: converted.redactions, notes: converted.notes, fileText: await converted.toFileText(format) };
}
