/** A JSON object (not an array, not null): the shape every control endpoint answers with. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
