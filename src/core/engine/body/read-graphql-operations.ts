import { graphqlOperationName } from './graphql-operation-name.js';
import { parseContentType } from './parse-content-type.js';

/** One GraphQL operation a request carries, as `match.graphql` sees it. */
export interface GraphqlOperation {
  /** The request's `operationName`, else the name of the single operation in `query`. */
  operationName: string | undefined;
  /** `{}` when the request sent none. */
  variables: unknown;
}

/** What a request carries that GraphQL-over-HTTP reads. */
export interface GraphqlRequestParts {
  url: URL;
  headers: Headers;
  /** The parsed body (see `parseRequestBody`): JSON, form fields, or text. */
  body: unknown;
}

const NONE: readonly GraphqlOperation[] = [];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `variables` as sent: an object, or JSON text of one (GET query strings, some form posts). */
function variablesOf(value: unknown): unknown {
  if (value === undefined || value === null || value === '') return {};
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function operationOf(query: unknown, operationName: unknown, variables: unknown): GraphqlOperation | undefined {
  const hasQuery = typeof query === 'string';
  const named = typeof operationName === 'string' && operationName !== '';
  if (!hasQuery && !named) return undefined;
  return {
    operationName: named ? operationName : hasQuery ? graphqlOperationName(query) : undefined,
    variables: variablesOf(variables),
  };
}

function fromParams(params: URLSearchParams, query: string | null = params.get('query')): GraphqlOperation | undefined {
  return operationOf(query ?? undefined, params.get('operationName') ?? undefined, params.get('variables') ?? undefined);
}

/**
 * The GraphQL operations a request carries, the ways GraphQL clients send them (Apollo, urql,
 * graphql-request, Relay):
 * - a JSON body `{ query, operationName?, variables? }`, or a batch: an array of those;
 * - an `application/graphql` body (the document itself; `operationName` and `variables` from
 *   the query string);
 * - a GET query string `?query=…&operationName=…&variables=<JSON>` (also a persisted query
 *   that sends only `operationName` and `extensions`).
 * An empty list when the request is not GraphQL.
 * @see https://graphql.github.io/graphql-over-http/draft/
 */
export function readGraphqlOperations({ url, headers, body }: GraphqlRequestParts): readonly GraphqlOperation[] {
  if (Array.isArray(body)) {
    return body.flatMap((item) => (isRecord(item) ? (operationOf(item.query, item.operationName, item.variables) ?? []) : []));
  }
  if (isRecord(body)) {
    const operation = operationOf(body.query, body.operationName, body.variables);
    return operation ? [operation] : NONE;
  }
  if (typeof body === 'string' && parseContentType(headers.get('content-type')).mediaType === 'application/graphql') {
    const operation = fromParams(url.searchParams, body);
    return operation ? [operation] : NONE;
  }
  if (body === undefined && url.search !== '') {
    const operation = fromParams(url.searchParams);
    return operation ? [operation] : NONE;
  }
  return NONE;
}
