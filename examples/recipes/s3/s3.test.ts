import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import { createHarness } from 'scenario-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { scenarios } from './scenarios.js';

const harness = createHarness({ enabled: true, scenarios, unhandled: 'error' });
const s3 = new S3Client({
  region: 'eu-west-1',
  credentials: { accessKeyId: 'AKIDNOTAREALKEY', secretAccessKey: 'not-a-real-secret' }, // nothing reaches AWS
  maxAttempts: 1,
});

beforeAll(() => harness.start());
afterAll(() => harness.stop());

test('a binary object comes back byte for byte', async () => {
  const object = await harness.run(randomUUID(), () => s3.send(new GetObjectCommand({ Bucket: 'shop-uploads', Key: 'logo.png' })));
  const bytes = await object.Body!.transformToByteArray();
  expect([object.ContentType, Buffer.from(bytes).toString('base64')]).toEqual(['image/png', 'iVBORw0KGgoAAAANSUhEUg==']);
});

test('a 3 MiB upload is sent with Expect: 100-continue and answered', async () => {
  const testId = randomUUID();
  const body = Buffer.alloc(3 * 1024 * 1024, 1);
  const put = await harness.run(testId, () => s3.send(new PutObjectCommand({ Bucket: 'shop-uploads', Key: 'backup.bin', Body: body })));
  expect(put.ETag).toBe('"big-backup.bin"');
  expect(await harness.getState(testId)).toEqual({ uploads: ['backup.bin'] });
});

test('a small upload goes without Expect: 100-continue', async () => {
  const put = await harness.run(randomUUID(), () => s3.send(new PutObjectCommand({ Bucket: 'shop-uploads', Key: 'note.txt', Body: 'hello' })));
  expect(put.ETag).toBe('"note.txt"');
});

test('a missing object is the SDK\'s NoSuchKey', async () => {
  const testId = randomUUID();
  await harness.switchScenario(testId, 'missingObjects');
  await expect(harness.run(testId, () => s3.send(new GetObjectCommand({ Bucket: 'shop-uploads', Key: 'report.csv' })))).rejects.toBeInstanceOf(NoSuchKey);
});
