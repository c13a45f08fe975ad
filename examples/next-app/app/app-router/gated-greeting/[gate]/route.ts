import { fetchGreeting, upstreamUrl } from '../../../../lib/upstream';

export async function GET(_request: Request, { params }: { params: Promise<{ gate: string }> }): Promise<Response> {
  await fetch(upstreamUrl(`/upstream/gate/${(await params).gate}`));
  return Response.json({ greeting: await fetchGreeting() });
}
