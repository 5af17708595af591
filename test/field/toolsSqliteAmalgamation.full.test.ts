// Outside edits of the sqlite amalgamation and its header between calls, full tier (each waits for
// clangd to build sqlite3.c again; fieldSpecs.ts SQLITE_AMALGAMATION_EDITS).
import { defineFieldSuite } from './fieldSuite.js';
import { SQLITE_AMALGAMATION_EDITS } from './fieldSpecs.js';

defineFieldSuite(SQLITE_AMALGAMATION_EDITS, 'full tier');
