import type { NextApiRequest, NextApiResponse } from 'next';
import { fetchGreeting, upstreamUrl } from '../../../../lib/upstream';

export default async function handler(req: NextApiRequest, res: NextApiResponse): Promise<void> {
  await fetch(upstreamUrl(`/upstream/gate/${String(req.query.gate)}`));
  res.json({ greeting: await fetchGreeting() });
}
