/**
 * The parsed view of a request body: JSON when it parses, else the text; `undefined` when there
 * is none. (One view per content type is being added: form, multipart, GraphQL.)
 */
export function parseBodyBytes(bytes: Uint8Array | undefined, _contentType: string | null): unknown {
  if (bytes === undefined) return undefined;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The parsed view of a Fetch request's body; reads a clone, so the original can still be sent. */
export async function readBody(request: Request): Promise<unknown> {
  if (request.body === null) return undefined;
  return parseBodyBytes(new Uint8Array(await request.clone().arrayBuffer()), request.headers.get('content-type'));
}
