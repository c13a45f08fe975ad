/**
 * A problem with one field of one mock, found while compiling it. `field` is the path inside
 * the mock (`match.query.page`); the caller adds the scenario ID and mock index.
 */
export class DefinitionError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'DefinitionError';
  }
}
