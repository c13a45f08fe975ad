/**
 * The undici package v8 (what Node 26 bundles: undici 8 handlers, `controller.rawHeaders`),
 * installed as the `undici8` alias: the suite of undici-package-suite.ts. undici 8 runs on
 * Node 22.19 and later only; CI runs this file on Node 22, 24 and 26.
 */
import { describe, test } from 'vitest';
import { defineUndiciPackageSuite } from './undici-package-suite.js';

const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
if (major > 22 || (major === 22 && minor >= 19)) {
  defineUndiciPackageSuite('undici 8', () => import('undici8'));
} else {
  describe('undici 8', () => test.skip(`needs Node 22.19 or later (this is ${process.version}); CI runs it on Node 22, 24 and 26`, () => {}));
}
