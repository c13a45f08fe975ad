/**
 * The undici package v7 (what Node 24 bundles): `request`, `fetch` and `stream`, imported at
 * module scope before the harness starts. All three reach the harness through undici's
 * global dispatcher. undici6.test.ts and undici8.test.ts run the same suite on the other majors.
 */
import { defineUndiciPackageSuite } from './undici-package-suite.js';

defineUndiciPackageSuite('undici 7', () => import('undici'));
