import { didYouMean } from '../../core/did-you-mean.js';
import { describeValue as describe, failOptions as fail } from '../../core/option-problem.js';

const CONTRACT_OPTIONS = ['openapi', 'llm', 'onViolation', 'allowRefsOutside'];
const CONTRACTS_EXAMPLE = "contracts: { openapi: ['./openapi/payments.yaml'], onViolation: 'warn' }";

/** `createHarness({ contracts })`: `{ openapi?: [documents], llm?, onViolation?, allowRefsOutside? }`, with documents or `llm: true`. */
export function checkContractsOptions(contracts: unknown): void {
  if (contracts === undefined) return;
  if (typeof contracts !== 'object' || contracts === null || Array.isArray(contracts)) fail(`expected "contracts" to be an object such as ${CONTRACTS_EXAMPLE}, instead got ${describe(contracts)}.`);
  for (const key of Object.keys(contracts)) {
    if (CONTRACT_OPTIONS.includes(key)) continue;
    const near = didYouMean(key, CONTRACT_OPTIONS);
    fail(`"contracts.${key}" is not a contracts option${near === undefined ? '' : ` (did you mean "${near}"?)`}; use openapi, llm, onViolation or allowRefsOutside.`);
  }
  const { openapi, llm, onViolation, allowRefsOutside } = contracts as Record<string, unknown>;
  if (llm !== undefined && typeof llm !== 'boolean') fail(`expected "contracts.llm" to be true or false, instead got ${describe(llm)}.`);
  const noDocuments = () => fail(`expected "contracts.openapi" to be a non-empty array of OpenAPI documents (file paths, or documents as objects), instead got ${describe(openapi)}. For example: ${CONTRACTS_EXAMPLE}. To check only llm answers against their requests' schemas: contracts: { llm: true }.`);
  if (openapi === undefined) {
    // `llm: true` alone checks LLM answers with no document to read.
    if (llm === false) fail(`"contracts" checks nothing: "contracts.llm" is false and there is no "contracts.openapi". Give the API documents, as in ${CONTRACTS_EXAMPLE}, or leave "contracts" out.`);
    if (llm !== true) noDocuments();
  } else if (!Array.isArray(openapi) || openapi.length === 0) {
    noDocuments();
  }
  for (const [i, document] of (Array.isArray(openapi) ? openapi : []).entries()) {
    const isObject = typeof document === 'object' && document !== null && !Array.isArray(document);
    if ((typeof document !== 'string' || document === '') && !isObject) fail(`expected "contracts.openapi[${i}]" to be a file path or an OpenAPI document object, instead got ${describe(document)}.`);
  }
  if (onViolation !== undefined && onViolation !== 'warn' && onViolation !== 'error') fail(`expected "contracts.onViolation" to be 'warn' or 'error', instead got ${describe(onViolation)}.`);
  if (allowRefsOutside !== undefined && typeof allowRefsOutside !== 'boolean') fail(`expected "contracts.allowRefsOutside" to be true or false, instead got ${describe(allowRefsOutside)}.`);
}
