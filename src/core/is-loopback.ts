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
