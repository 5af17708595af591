// The includer of the sqlite amalgamation edited outside while closed, asked from the header, quick
// tier (fieldSpecs.ts SQLITE_CLOSED_INCLUDER; issue 28 item 4).
import { defineFieldSuite } from './fieldSuite.js';
import { SQLITE_CLOSED_INCLUDER } from './fieldSpecs.js';

defineFieldSuite(SQLITE_CLOSED_INCLUDER, 'quick tier, the includer closed');
