// Outside edits of the sqlite amalgamation and its header between calls, full tier: wrong today
// (issue 28 item 4: clangd never hears of outside changes to headers and other sources).
import { defineFieldSuite } from './fieldSuite.js';
import { SQLITE_AMALGAMATION_EDITS } from './fieldSpecs.js';

defineFieldSuite(SQLITE_AMALGAMATION_EDITS, 'full tier');
