const OPERATION_KEYWORDS = new Set(['query', 'mutation', 'subscription']);
const NAME_START = /[_A-Za-z]/;
const NAME = /[_0-9A-Za-z]*/y;

/**
 * The name of the single operation in a GraphQL document, as a server picks it when the
 * request names none: `query GetUser($id: ID!) { … }` → `'GetUser'`. `undefined` when the
 * document has no operation, several (the request must then say `operationName`), or only an
 * anonymous one (`{ user { id } }`, `query { … }`).
 * @note Not a GraphQL parser, on purpose: one linear pass that skips strings, block strings
 * and comments, counts brackets, and reads names only at the top level. Fragments and
 * anything inside selections, arguments or variable defaults are ignored.
 * @see https://spec.graphql.org/October2021/#sec-Executing-Requests (GetOperation)
 */
export function graphqlOperationName(document: string): string | undefined {
  const operations: (string | undefined)[] = [];
  let depth = 0;
  /** A definition header has started (`query X(…) @dir`, `fragment F on T`): its `{` is not a shorthand query. */
  let inHeader = false;
  /** The previous top-level token was `query`/`mutation`/`subscription`: the next name is the operation's. */
  let expectName = false;
  let i = 0;
  while (i < document.length) {
    const char = document[i]!;
    if (char === '#') {
      const end = document.indexOf('\n', i);
      i = end === -1 ? document.length : end + 1;
    } else if (char === '"') {
      i = skipString(document, i);
    } else if (char === '{' || char === '(' || char === '[') {
      if (depth === 0 && char === '{' && !inHeader) operations.push(undefined);
      if (depth === 0 && char === '{') inHeader = false;
      expectName = false;
      depth++;
      i++;
    } else if (char === '}' || char === ')' || char === ']') {
      depth = Math.max(0, depth - 1);
      i++;
    } else if (NAME_START.test(char)) {
      NAME.lastIndex = i + 1;
      NAME.exec(document);
      const name = document.slice(i, NAME.lastIndex);
      i = NAME.lastIndex;
      if (depth > 0) continue;
      if (expectName) operations[operations.length - 1] = name;
      else if (!inHeader && OPERATION_KEYWORDS.has(name)) operations.push(undefined);
      expectName = !inHeader && OPERATION_KEYWORDS.has(name);
      inHeader = true;
    } else {
      if (char !== ' ' && char !== '\t' && char !== '\n' && char !== '\r' && char !== ',') expectName = false;
      i++;
    }
  }
  return operations.length === 1 ? operations[0] : undefined;
}

/** The index just after the string (or block string) that starts at `start`. */
function skipString(document: string, start: number): number {
  if (document.startsWith('"""', start)) {
    let i = start + 3;
    while (i < document.length) {
      if (document[i] === '\\' && document.startsWith('"""', i + 1)) i += 4;
      else if (document.startsWith('"""', i)) return i + 3;
      else i++;
    }
    return document.length;
  }
  for (let i = start + 1; i < document.length; i++) {
    const char = document[i];
    if (char === '\\') i++;
    else if (char === '"' || char === '\n') return i + 1;
  }
  return document.length;
}
