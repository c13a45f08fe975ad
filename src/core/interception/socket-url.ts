/** The `ws:`/`wss:` URL of a handshake made to an `http:`/`https:` URL (undici and node:http both make it so). */
export function socketUrlOf(url: URL): URL {
  const socketUrl = new URL(url.href);
  if (socketUrl.protocol === 'http:') socketUrl.protocol = 'ws:';
  else if (socketUrl.protocol === 'https:') socketUrl.protocol = 'wss:';
  return socketUrl;
}
