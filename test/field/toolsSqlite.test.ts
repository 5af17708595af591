// The general field cases on the sqlite amalgamation, quick tier (fieldSpecs.ts).
import { defineFieldSuite } from './fieldSuite.js';
import { SQLITE_QUICK } from './fieldSpecs.js';

defineFieldSuite(SQLITE_QUICK, 'quick tier');
