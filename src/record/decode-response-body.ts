import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

/** A response body with its `content-encoding` undone. */
export interface DecodedBody {
  /** The body's bytes (or its text, when the recorder gave text). */
  body: Uint8Array | string | undefined;
  /**
   * The encodings still applied, when they could not be undone (an unknown one such as `zstd`,
   * or bytes that do not decompress): the body is then kept as bytes with its
   * `content-encoding` header, so the client decodes it as it did for real.
   */
  stillEncoded: string | undefined;
}

const DECODERS: Record<string, (bytes: Uint8Array) => Uint8Array> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  br: brotliDecompressSync,
  // "deflate" is zlib-wrapped by the RFC, raw deflate by some servers: try both.
  deflate: (bytes) => {
    try {
      return inflateSync(bytes);
    } catch {
      return inflateRawSync(bytes);
    }
  },
};

/**
 * Undo a response's `content-encoding` (gzip, deflate, brotli, in the reverse of the order
 * applied), so the recorded body is the JSON or text itself.
 * @note A recorder behind `fetch` may hand over a body that is already decoded while the header
 * still says `gzip`: bytes that do not decompress are taken as already decoded when they carry
 * no gzip magic, and kept encoded otherwise.
 */
export function decodeResponseBody(contentEncoding: string | undefined, body: Uint8Array | string | undefined): DecodedBody {
  const encodings = (contentEncoding ?? '').split(',').map((part) => part.trim().toLowerCase()).filter((part) => part !== '' && part !== 'identity');
  if (encodings.length === 0 || body === undefined || body.length === 0 || typeof body === 'string') return { body, stillEncoded: undefined };
  let bytes: Uint8Array = body;
  for (let i = encodings.length - 1; i >= 0; i--) {
    const decode = DECODERS[encodings[i]!];
    if (decode === undefined) return { body: bytes, stillEncoded: encodings.slice(0, i + 1).join(', ') };
    try {
      bytes = new Uint8Array(decode(bytes));
    } catch {
      const gzipMagic = bytes[0] === 0x1f && bytes[1] === 0x8b;
      if (gzipMagic || i < encodings.length - 1) return { body: bytes, stillEncoded: encodings.slice(0, i + 1).join(', ') };
      return { body: bytes, stillEncoded: undefined };
    }
  }
  return { body: bytes, stillEncoded: undefined };
}
