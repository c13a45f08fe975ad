import { fetchGreeting } from '../../../lib/upstream';

export async function POST(request: Request): Promise<Response> {
  const received: unknown = await request.json();
  return Response.json({ received, greeting: await fetchGreeting() });
}
