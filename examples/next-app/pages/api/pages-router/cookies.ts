import type { NextApiRequest, NextApiResponse } from 'next';

export default function handler(_req: NextApiRequest, res: NextApiResponse): void {
  res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']).json({});
}
