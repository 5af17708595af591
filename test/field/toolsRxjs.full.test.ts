// The general field cases on rxjs 7.8.2, full tier (fieldSpecs.ts; `pnpm test:field --full`).
import { defineFieldSuite } from './fieldSuite.js';
import { RXJS_FULL } from './fieldSpecs.js';

defineFieldSuite(RXJS_FULL, 'full tier');
