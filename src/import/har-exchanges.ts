import { compileHostList } from '../core/host-list.js';
import type { RecordedExchange } from '../record/recorded-exchange.js';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Which HAR entries become exchanges. */
export interface HarFilter {
  /** Only calls to these hosts: `api.stripe.com`, `api.stripe.com:8443`, `*.stripe.com`. @default every host */
  hosts?: string[];
  /** Keep images, fonts, stylesheets, scripts and media too. @default false */
  includeAssets?: boolean;
}

/** HAR entries as exchanges, and what was left out. */
export interface HarExchanges {
  exchanges: RecordedExchange[];
  skipped: { assets: number; otherHosts: number; unreadable: string[] };
  /** The first entry's `startedDateTime`: when the traffic was recorded. */
  startedAt: string | undefined;
}

/** Media types of static assets: what a page loads, not what an app calls. */
const ASSET_TYPE = /^(?:image\/|font\/|audio\/|video\/|text\/css|text\/javascript|application\/(?:x-)?javascript|application\/ecmascript|application\/wasm|application\/font-|application\/x-font-|application\/vnd\.ms-fontobject)/i;
const ASSET_EXTENSION = /\.(?:png|jpe?g|gif|svg|ico|webp|avif|bmp|woff2?|ttf|otf|eot|css|m?js|map|mp4|webm|mp3|ogg|wav|wasm)$/i;
/** Chrome's `_resourceType` for the same. */
const ASSET_RESOURCE = new Set(['image', 'font', 'stylesheet', 'script', 'media', 'manifest']);

function pairs(list: unknown): [string, string][] {
  if (!Array.isArray(list)) return [];
  return list.filter(isRecord).map((header) => [String(header.name), String(header.value)]);
}

function isAsset(entry: Json, url: URL, mimeType: string): boolean {
  return ASSET_TYPE.test(mimeType) || ASSET_EXTENSION.test(url.pathname) || (typeof entry._resourceType === 'string' && ASSET_RESOURCE.has(entry._resourceType));
}

/**
 * A HAR request's headers, with `postData.mimeType` as its content type when no header gives
 * one: some tools (and hand-edited HARs) put the body's type only there, and the body is read
 * by it (a form body becomes fields to match, not one string).
 */
function requestHeaders(request: Json): [string, string][] {
  const headers = pairs(request.headers);
  const mimeType = isRecord(request.postData) && typeof request.postData.mimeType === 'string' ? request.postData.mimeType.trim() : '';
  if (mimeType === '' || headers.some(([name]) => name.toLowerCase() === 'content-type')) return headers;
  return [...headers, ['content-type', mimeType]];
}

/** A HAR `postData`: its `text` (base64 when a tool marked it so), or its `params` as a form body. */
function requestBody(postData: unknown): string | Uint8Array | undefined {
  if (!isRecord(postData)) return undefined;
  if (typeof postData.text === 'string') return postData.encoding === 'base64' ? new Uint8Array(Buffer.from(postData.text, 'base64')) : postData.text;
  if (Array.isArray(postData.params)) return new URLSearchParams(postData.params.filter(isRecord).map((param) => [String(param.name), String(param.value ?? '')])).toString();
  return undefined;
}

/** A HAR `content`: `text`, decoded from base64 when `encoding` says so. */
function responseBody(content: unknown): string | Uint8Array | undefined {
  if (!isRecord(content) || typeof content.text !== 'string') return undefined;
  return content.encoding === 'base64' ? new Uint8Array(Buffer.from(content.text, 'base64')) : content.text;
}

/**
 * The calls of a HAR file (`log.entries`, as browsers' dev tools, Charles, Fiddler, mitmproxy or
 * Playwright's `recordHar` save them) as exchanges for `scenarioFromTraffic`: static assets
 * skipped (by content type, file extension and Chrome's resource type), other hosts skipped
 * when `hosts` is given, bodies read from text or base64.
 * @note A HAR keeps response bodies decoded even when the headers still say `content-encoding: br`;
 * the converter takes bytes that do not decompress as already decoded.
 */
export function harExchanges(har: unknown, filter: HarFilter = {}): HarExchanges {
  const entries = isRecord(har) && isRecord(har.log) && Array.isArray(har.log.entries) ? har.log.entries : undefined;
  if (entries === undefined) throw new TypeError('it is not a HAR file: expected { "log": { "entries": [...] } }');
  const hostAllowed = filter.hosts && filter.hosts.length > 0 ? compileHostList(filter.hosts) : undefined;
  const first = entries.find(isRecord);
  const startedAt = first !== undefined && typeof first.startedDateTime === 'string' && !Number.isNaN(Date.parse(first.startedDateTime)) ? first.startedDateTime : undefined;
  const out: HarExchanges = { exchanges: [], skipped: { assets: 0, otherHosts: 0, unreadable: [] }, startedAt };
  entries.forEach((entry: unknown, i: number) => {
    if (!isRecord(entry) || !isRecord(entry.request) || !isRecord(entry.response)) {
      out.skipped.unreadable.push(`entry ${i}: no request or response`);
      return;
    }
    const { request, response } = entry;
    let url: URL;
    try {
      url = new URL(String(request.url));
    } catch {
      out.skipped.unreadable.push(`entry ${i}: ${JSON.stringify(request.url)} is not a URL`);
      return;
    }
    const content = isRecord(response.content) ? response.content : {};
    const mimeType = typeof content.mimeType === 'string' ? content.mimeType : '';
    if (!filter.includeAssets && isAsset(entry, url, mimeType)) {
      out.skipped.assets++;
      return;
    }
    if (hostAllowed !== undefined) {
      const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
      if (!hostAllowed(url.hostname, port)) {
        out.skipped.otherHosts++;
        return;
      }
    }
    out.exchanges.push({
      request: { method: String(request.method ?? 'GET'), url: url.href, headers: requestHeaders(request), body: requestBody(request.postData) },
      response: { status: Number(response.status), headers: pairs(response.headers), body: responseBody(content) },
    });
  });
  return out;
}
