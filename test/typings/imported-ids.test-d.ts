/**
 * Compile-time checks of the IDs module `import openapi --ids` writes, run by `npm run typecheck`.
 * test/import/openapi.test.ts keeps the committed module equal to what the importer writes.
 */
import { createHarnessClient } from 'scenario-harness/client';
import { expectTypeOf } from 'vitest';
import { paymentsScenarioIds, type PaymentsScenarioId, type PaymentsScenarios } from '../import/fixtures/payments.ids.js';

export async function typedSwitching(): Promise<void> {
  expectTypeOf(paymentsScenarioIds[0]).toEqualTypeOf<'default'>();
  expectTypeOf<'payments:createCharge:card_declined'>().toMatchTypeOf<PaymentsScenarioId>();
  const client = createHarnessClient<PaymentsScenarios>({ baseURL: 'http://127.0.0.1:3000' });
  await client.switchScenario('payments:createCharge:card_declined');
  await client.switchScenario('payments:createCharge:402');
  // @ts-expect-error -- not an operation of the document
  await client.switchScenario('payments:createCharge:card_declinde');
  for (const id of paymentsScenarioIds) await client.switchScenario(id);
}
