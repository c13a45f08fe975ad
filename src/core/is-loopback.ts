/**
 * True for loopback hosts: `localhost`, 127.0.0.0/8 and ::1. Calls there that no mock answers
 * always go through, because the app's own servers and in-process test clients live there.
 */
export function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    hostname === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/**
 * True for loopback hosts that are reached without asking DNS: `localhost`, 127.0.0.0/8 and ::1.
 * What the interception lets through unanswered under `unhandled: 'error'`: a `*.localhost` name
 * is loopback by RFC 6761, but Node resolves it with the system resolver, which can ask the
 * network's DNS; list it in `allowHosts` to let it through.
 */
export function isLoopbackWithoutLookup(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
