/**
 * Compile-time checks of harnessMiddleware's return value, run by `npm run typecheck`: Express
 * takes it whole or spread, and NestJS's `MiddlewareConsumer.apply(...middleware: (Type |
 * Function)[])` takes it unspread (TS2345 before) and spread.
 */
import express from 'express';
import type { Harness } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';

declare const harness: Harness;
/** NestJS's MiddlewareConsumer.apply, as @nestjs/common 12 declares it. */
declare function nestApply(...middleware: (Function | (new (...args: never[]) => unknown))[]): void; // eslint-disable-line @typescript-eslint/no-unsafe-function-type

const app = express();
app.use(harnessMiddleware(harness));
app.use(...harnessMiddleware(harness));
nestApply(harnessMiddleware(harness));
nestApply(...harnessMiddleware(harness));
