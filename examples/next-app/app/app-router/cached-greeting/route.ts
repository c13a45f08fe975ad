import { fetchGreeting } from '../../../lib/upstream';

/** Fetches that ask Next's Data Cache to keep the answer: a switch must still show. */
export async function GET(request: Request): Promise<Response> {
  const mode = new URL(request.url).searchParams.get('mode');
  const init: RequestInit = mode === 'revalidate' ? { next: { revalidate: 3600 } } : { cache: 'force-cache' };
  return Response.json({ greeting: await fetchGreeting(init) });
}
