// An app that creates and starts a harness of its own, run under register: start() must refuse.
import { createHarness } from 'scenario-harness';

const harness = createHarness({ enabled: true, scenarios: { default: { name: 'Own', mocks: [] } } });
await harness.start();
console.log('started a second harness');
