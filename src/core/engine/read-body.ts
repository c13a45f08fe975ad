/**
 * The request body as JSON when it parses, else as text; `undefined` when there is none.
 * Reads a clone, so the original can still go out on a pass-through.
 */
export async function readBody(request: Request): Promise<unknown> {
  if (request.body === null) return undefined;
  const text = await request.clone().text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
