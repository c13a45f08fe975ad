/** The undici package v6 (what Node 22 bundles), installed as the `undici6` alias: the suite of undici-package-suite.ts. */
import { defineUndiciPackageSuite } from './undici-package-suite.js';

defineUndiciPackageSuite('undici 6', () => import('undici6'));
