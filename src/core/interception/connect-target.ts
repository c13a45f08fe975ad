/**
 * The host and port a `net.Socket#connect` call aims at; `undefined` for IPC paths. Read as Node
 * reads them (lib/net.js): an IPC path only when `path` is truthy (`path: null` or `''` connect
 * over TCP), and a string first argument is a port when `Number()` makes a number ≥ 0 of it
 * (`' 443'` is port 443), else a pipe name.
 * @note Self-contained (no imports, no outer names): the worker guard sends its source text into
 * worker threads (worker-guard-source.ts).
 */
export function connectTarget(args: unknown[]): { host: string; port: number | undefined } | undefined {
  // net.connect() hands Socket#connect its already-normalised arguments as one array.
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (typeof first === 'object' && first !== null) {
    const options = first as { host?: unknown; port?: number | string; path?: unknown };
    if (options.path) return undefined;
    return { host: typeof options.host === 'string' && options.host !== '' ? options.host : 'localhost', port: options.port === undefined ? undefined : Number(options.port) };
  }
  if (typeof first === 'number' || (typeof first === 'string' && Number(first) >= 0)) {
    return { host: typeof args[1] === 'string' && args[1] !== '' ? args[1] : 'localhost', port: Number(first) };
  }
  return undefined;
}
