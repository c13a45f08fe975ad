import type { Contract } from './load-contract.js';
import type { Located } from './json-pointer.js';
import type { SchemaValidators } from './schema-validators.js';

/** One documented operation, as the checks read it. */
export interface OperationContext {
  contract: Contract;
  validators: SchemaValidators;
  /** `GET` */
  method: string;
  /** `/pets/{petId}` */
  template: string;
  operation: Located;
  pathItem: Located;
}

/** One problem of a mock: the field (`response.body.id`, `match.query.limitt`) and what the document expects there (`expected integer, got …`). */
export interface Finding {
  field: string;
  message: string;
}

/** `GET /pets/{petId}` */
export function operationLabel(context: Pick<OperationContext, 'method' | 'template'>): string {
  return `${context.method} ${context.template}`;
}
