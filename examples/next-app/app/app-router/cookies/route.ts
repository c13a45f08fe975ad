export function GET(): Response {
  const headers = new Headers({ 'content-type': 'application/json' });
  headers.append('set-cookie', 'a=1; Path=/');
  headers.append('set-cookie', 'b=2; Path=/');
  return new Response('{}', { headers });
}
