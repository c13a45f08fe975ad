import type tls from 'node:tls';

/**
 * The options of `tls.connect` that shape its secure context (Node's `tls.createSecureContext`).
 * A call that gives any of them gets a context of its own, as without the harness.
 */
const CONTEXT_OPTIONS = [
  'secureContext', 'ca', 'cert', 'key', 'pfx', 'passphrase', 'ciphers', 'sigalgs', 'ecdhCurve', 'dhparam', 'crl', 'honorCipherOrder',
  'minVersion', 'maxVersion', 'secureProtocol', 'secureOptions', 'sessionIdContext', 'ticketKeys', 'sessionTimeout', 'clientCertEngine',
  'privateKeyEngine', 'privateKeyIdentifier', 'allowPartialTrustChain',
] as const;

/**
 * One default secure context for the TLS sockets of node:https client requests that ask for no
 * context of their own.
 * @note The interception library answers an https call on a real `TLSSocket` it emulates, and
 * Node builds a new default secure context for each (reading the whole CA store): 18% of a mocked
 * axios call's CPU time on Node 22, about 200 µs a call. Node's https agent builds one per
 * connection too, so a call passed on saves the same. The context is built on first use, from
 * Node's defaults then (`NODE_EXTRA_CA_CERTS` included); a default changed later with
 * `tls.setDefaultCACertificates()` reaches calls only after `harness.stop()`.
 * @param isClientRequest true inside a node:http(s) client request (client-request-sockets.ts)
 * @returns a function that puts `tls.connect` back.
 */
export function installSharedSecureContext(isClientRequest: () => boolean): () => void {
  const tlsModule = process.getBuiltinModule('node:tls') as typeof tls & { connect: (...args: unknown[]) => tls.TLSSocket };
  const connect = tlsModule.connect;
  let shared: tls.SecureContext | undefined;
  const withSharedContext = function (this: unknown, ...args: unknown[]): tls.TLSSocket {
    const [first] = args;
    if (isClientRequest() && typeof first === 'object' && first !== null && !Array.isArray(first)) {
      const options = first as Record<string, unknown>;
      if (CONTEXT_OPTIONS.every((name) => options[name] === undefined)) {
        shared ??= tlsModule.createSecureContext();
        args[0] = { ...options, secureContext: shared };
      }
    }
    return Reflect.apply(connect, this, args) as tls.TLSSocket;
  };
  tlsModule.connect = withSharedContext;
  return () => {
    if (tlsModule.connect === withSharedContext) tlsModule.connect = connect;
  };
}
