// The general field cases on Go standard-library packages, full tier (fieldSpecs.ts; `pnpm test:field --full`).
import { defineFieldSuite } from './fieldSuite.js';
import { GO_STD_FULL } from './fieldSpecs.js';

defineFieldSuite(GO_STD_FULL, 'full tier');
