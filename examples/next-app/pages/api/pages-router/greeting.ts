import type { NextApiRequest, NextApiResponse } from 'next';
import { fetchGreeting } from '../../../lib/upstream';

export default async function handler(_req: NextApiRequest, res: NextApiResponse): Promise<void> {
  res.json({ greeting: await fetchGreeting() });
}
