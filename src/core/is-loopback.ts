/**
 * True for loopback hosts that are reached without asking DNS: `localhost`, 127.0.0.0/8 and ::1.
 * What the interception lets through unanswered under `unhandled: 'error'`: a `*.localhost` name
 * is loopback by RFC 6761, but Node resolves it with the system resolver, which can ask the
 * network's DNS; list it in `allowHosts` to let it through.
 * @note Self-contained: the worker guard sends its source text into worker threads (worker-guard-source.ts).
 */
export function isLoopbackWithoutLookup(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * True for loopback hosts: `localhost` and its `*.localhost` names, 127.0.0.0/8 and ::1 (where
 * `serve` may bind without a token, and calls a recording leaves out).
 */
export function isLoopback(hostname: string): boolean {
  return isLoopbackWithoutLookup(hostname) || hostname.endsWith('.localhost');
}
