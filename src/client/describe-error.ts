/** `TypeError: fetch failed (Error: connect ECONNREFUSED …)`: the error's first line, and its innermost cause's. */
export function describeError(error: unknown): string {
  const firstLine = (value: unknown) => {
    const text = value instanceof Error ? `${value.name}: ${value.message}` : String(value);
    // Playwright appends a multi-line call log; its first line says what went wrong.
    return (text.split('\n')[0] ?? text).trim();
  };
  let cause: unknown = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; depth < 8 && cause instanceof Error && cause.cause instanceof Error; depth += 1) cause = cause.cause;
  return cause instanceof Error ? `${firstLine(error)} (${firstLine(cause)})` : firstLine(error);
}
