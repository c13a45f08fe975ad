import type { NextApiRequest, NextApiResponse } from 'next';
import { fetchGreeting } from '../../../lib/upstream';

/** Next's own body parser reads the JSON first; the test ID must survive it. */
export default async function handler(req: NextApiRequest, res: NextApiResponse): Promise<void> {
  res.json({ received: req.body as unknown, greeting: await fetchGreeting() });
}
