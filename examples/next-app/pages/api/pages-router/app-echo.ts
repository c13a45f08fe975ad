import type { NextApiRequest, NextApiResponse } from 'next';

export default function handler(req: NextApiRequest, res: NextApiResponse): void {
  res.json({ method: req.method, query: req.query.x, body: req.body as unknown });
}
