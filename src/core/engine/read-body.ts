import { parseRequestBody, type ParsedBody } from './body/parse-request-body.js';

/**
 * A Fetch Request's body, parsed by its content type (see `parseRequestBody`); `undefined`
 * when there is none. Reads a clone, so the original can still go out on a pass-through.
 */
export async function readParsedBody(request: Request): Promise<ParsedBody | undefined> {
  if (request.body === null) return undefined;
  const bytes = new Uint8Array(await request.clone().arrayBuffer());
  return parseRequestBody(request.headers.get('content-type'), bytes);
}

/**
 * The request body's parsed value (JSON value, form or multipart fields, else the text);
 * `undefined` when there is none.
 */
export async function readBody(request: Request): Promise<unknown> {
  return (await readParsedBody(request))?.value;
}
