// The general field cases on the sqlite amalgamation, full tier (fieldSpecs.ts; `pnpm test:field --full`).
import { defineFieldSuite } from './fieldSuite.js';
import { SQLITE_FULL } from './fieldSpecs.js';

defineFieldSuite(SQLITE_FULL, 'full tier');
