// The conformance scenarios as a scenario module for HARNESS_SCENARIOS (loaded through tsx).
export { conformanceScenarios as scenarios } from '../conformance/scenarios.js';
