import type { RecordedExchange as ConverterExchange } from '../../record/recorded-exchange.js';
import type { RecordedExchange } from './recorded-exchange.js';

/** What the record endpoint hands over: the draft scenario file of a test's recorded calls. */
export interface RecordingDraft {
  scenarios: unknown;
  /** Every redaction applied (field and reason, never the value). */
  redactions: unknown[];
  notes: string[];
  /** The file's text, checked once more for every known secret. */
  fileText: string;
}

/** Options the harness passes to the converter (`createHarness({ recording })`). */
export interface RecordingOptions {
  /** Environment variables whose values must never reach a file, e.g. `['STRIPE_SECRET_KEY']`. */
  secrets?: { env?: string[] };
  /** More header and JSON/form/query key names to redact. */
  redact?: { headers?: string[]; keys?: string[] };
}

function bytesOf(part: { body?: string; bodyBase64?: string }): Uint8Array | string | undefined {
  return part.bodyBase64 !== undefined ? Buffer.from(part.bodyBase64, 'base64') : part.body;
}

/**
 * The draft scenario file made of a test's recorded calls, through the one traffic → scenario
 * converter (redaction, the leak check). The converter loads on first use only: an app that
 * never records never loads it. Throws `SECRET_LEAK` rather than return a file with a secret.
 */
export async function recordingDraft(exchanges: readonly RecordedExchange[], format: 'json' | 'yaml', options: RecordingOptions = {}): Promise<RecordingDraft> {
  const { scenarioFromTraffic } = await import('../../record/scenario-from-traffic.js');
  const converted = await scenarioFromTraffic(
    exchanges.map(
      (exchange): ConverterExchange => ({
        request: { method: exchange.request.method, url: exchange.request.url, headers: exchange.request.headers, body: bytesOf(exchange.request) },
        response: { status: exchange.response.status, headers: exchange.response.headers, body: bytesOf(exchange.response) },
      }),
    ),
    { name: 'Recorded', ...(options.secrets === undefined ? {} : { secrets: options.secrets }), ...(options.redact === undefined ? {} : { redact: options.redact }) },
  );
  return { scenarios: converted.scenarios, redactions: converted.redactions, notes: converted.notes, fileText: await converted.toFileText(format) };
}
