export async function POST(request: Request): Promise<Response> {
  const query = new URL(request.url).searchParams.get('x');
  return Response.json({ method: request.method, query, body: await request.json() });
}
