/** A `Content-Type` header split into what the body parsers need. */
export interface ContentType {
  /** `type/subtype`, lower case, without parameters; `''` when there is no header. */
  mediaType: string;
  /** The `charset` parameter, lower case, without quotes; `undefined` when absent. */
  charset: string | undefined;
}

const NONE: ContentType = { mediaType: '', charset: undefined };
const CHARSET = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i;

/**
 * Read the media type and charset of a `Content-Type` header value. Lenient on purpose: the
 * header comes from the app under test, and a sloppy one should still be read, not refused.
 */
export function parseContentType(header: string | null | undefined): ContentType {
  if (header === null || header === undefined || header === '') return NONE;
  const end = header.indexOf(';');
  const mediaType = (end === -1 ? header : header.slice(0, end)).trim().toLowerCase();
  if (end === -1) return { mediaType, charset: undefined };
  const found = CHARSET.exec(header);
  const charset = found ? (found[1] ?? found[2] ?? '').toLowerCase() || undefined : undefined;
  return { mediaType, charset };
}
