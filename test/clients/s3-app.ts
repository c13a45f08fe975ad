/**
 * The app's S3 routes through @aws-sdk/client-s3, built at import time with fake credentials and
 * a fixed region. It sends through node:https; uploads of 2 MiB and more carry
 * `Expect: 100-continue`.
 */
import { GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { Express } from 'express';
import { createHash } from 'node:crypto';
import type { Gates } from './gates.js';

export const BUCKET = 'shop-uploads';

export const s3 = new S3Client({
  region: 'eu-west-1',
  credentials: { accessKeyId: 'AKIDNOTAREALKEY', secretAccessKey: 'not-a-real-secret' },
  // One attempt: an unanswered call must fail once, at once.
  maxAttempts: 1,
  // A stalled request fails instead of finishing late: the SDK waits 6 s for a 'continue' that
  // never comes, and this timeout is shorter, so a stall fails the upload test outright.
  requestHandler: { requestTimeout: 3_000, connectionTimeout: 3_000, throwOnRequestTimeout: true },
});

async function read(key: string): Promise<string> {
  const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return object.Body!.transformToString();
}

export function s3Routes(app: Express, gates: Gates): void {
  app.get('/receipts/latest-twice/:gate', async (req, res) => {
    const first = await read('latest.txt');
    await gates.pass(req.params.gate);
    const second = await read('latest.txt');
    res.json({ first, second });
  });
  app.get('/exports/:key', async (req, res) => {
    try {
      res.json({ ready: true, content: await read(req.params.key) });
    } catch (error) {
      if (!(error instanceof NoSuchKey)) throw error;
      res.json({ ready: false });
    }
  });
  app.put('/files/:key', async (req, res) => {
    const { text } = req.body as { text: string };
    try {
      const put = await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: req.params.key, Body: text, ContentType: 'text/plain' }));
      res.json({ etag: put.ETag });
    } catch (error) {
      if (!(error instanceof S3ServiceException) || error.$metadata.httpStatusCode === undefined) throw error;
      res.json({ rejected: error.name, status: error.$metadata.httpStatusCode });
    }
  });
  app.put('/big-files/:key', async (req, res) => {
    const { size } = req.body as { size: number };
    const body = Buffer.alloc(size, 'x');
    body.write('BIG:');
    const put = await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: req.params.key, Body: body, ContentType: 'application/octet-stream' }));
    res.json({ etag: put.ETag });
  });
  app.get('/images/:key', async (req, res) => {
    const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: req.params.key }));
    const bytes = await object.Body!.transformToByteArray();
    res.json({ contentType: object.ContentType, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  });
  app.get('/files', async (_req, res) => void res.json(await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }))));
}
