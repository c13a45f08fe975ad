/**
 * Every message in an error's chain, outermost first: `cause` (fetch, openai, got, axios,
 * octokit), `detail` (Stripe's connection errors keep the underlying error there) and the
 * members of an AggregateError. This is what an app logs when an SDK call fails.
 */
export function errorMessages(error: unknown): string[] {
  const messages: string[] = [];
  const seen = new Set<unknown>();
  const visit = (value: unknown) => {
    if (value === null || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    const { message, cause, detail, errors } = value as { message?: unknown; cause?: unknown; detail?: unknown; errors?: unknown };
    if (typeof message === 'string') messages.push(message);
    visit(cause);
    visit(detail);
    if (Array.isArray(errors)) errors.forEach(visit);
  };
  visit(error);
  return messages;
}
