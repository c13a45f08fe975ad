/** Every line scenario-harness logs starts with this. */
export const LOG_PREFIX = '[scenario-harness]';

/** Where log lines go; tests and users may replace it through `createHarness({ logger })`. */
export interface Logger {
  /** The start-up line (`announce`); a logger without `info` gets none. */
  info?(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

export const consoleLogger: Logger = {
  info: (message) => console.info(`${LOG_PREFIX} ${message}`),
  warn: (message) => console.warn(`${LOG_PREFIX} ${message}`),
  error: (message, error) =>
    error === undefined ? console.error(`${LOG_PREFIX} ${message}`) : console.error(`${LOG_PREFIX} ${message}`, error),
};

/** Quote a user-given name the same way in every message. */
export function quote(value: unknown): string {
  return JSON.stringify(String(value));
}

/** `"a", "b"` – or `(none)` – for lists inside messages. */
export function quoteList(values: Iterable<unknown>): string {
  const items = [...values].map(quote);
  return items.length > 0 ? items.join(', ') : '(none)';
}
