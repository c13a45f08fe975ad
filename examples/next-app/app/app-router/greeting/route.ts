import { fetchGreeting } from '../../../lib/upstream';

export async function GET(): Promise<Response> {
  return Response.json({ greeting: await fetchGreeting() });
}
