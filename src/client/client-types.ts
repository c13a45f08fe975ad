/** The types of the client's concerns, exported with `HarnessClient` (harness-client.ts), where they always were. */
export type { ControlFetch } from './control-connection.js';
export type { HarnessClientInit } from './harness-client-init.js';
export type { ActiveScenarioInfo, ScenarioInfo, SwitchScenarioOptions } from './switching.js';
export type { WaitForStateOptions } from './own-mocks-and-state.js';
export type { ExpectCalledOptions, WaitForCallOptions } from './verification.js';
export type { RecordedDraft } from './recording.js';
export type { StreamState, StreamView, WaitForStreamOptions } from './streams.js';
export type { ExpectSentOptions, WaitForFrameOptions } from './sockets.js';
