import { defineScenarios } from 'scenario-harness';

// Virtual-hosted style: the SDK puts the bucket in the host name.
const BUCKET = 'https://shop-uploads.s3.eu-west-1.amazonaws.com';
// A tiny PNG header, base64-encoded: binary answers go in bodyBase64, byte for byte.
const LOGO = 'iVBORw0KGgoAAAANSUhEUg==';

/** An S3 error as S3 sends it: XML with a Code the SDK turns into an exception class. */
const s3Error = (status: number, code: string) => ({
  status,
  headers: { 'content-type': 'application/xml' },
  body: `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`,
});

export const scenarios = defineScenarios({
  default: {
    name: 'Storage works',
    mocks: [
      { method: 'GET', url: `${BUCKET}/logo.png`, response: { headers: { 'content-type': 'image/png' }, bodyBase64: LOGO } },
      // Large uploads: the SDK sends `Expect: 100-continue` and waits for the go-ahead; the
      // harness gives it, reads the body, then answers.
      {
        method: 'PUT',
        url: `${BUCKET}/:key`,
        match: { headers: { expect: '100-continue' } },
        response: { headers: { etag: '"big-{{params.key}}"' } },
        afterResponse: { setState: { 'uploads[]': '{{params.key}}' } },
      },
      { method: 'PUT', url: `${BUCKET}/:key`, response: { headers: { etag: '"{{params.key}}"' } } },
    ],
  },
  missingObjects: {
    name: 'Nothing is stored yet',
    mocks: [{ method: 'GET', url: `${BUCKET}/:key`, response: s3Error(404, 'NoSuchKey') }],
  },
});
