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
