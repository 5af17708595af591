// The includer of the sqlite amalgamation deleted and restored again and again outside agent-lsp,
// asked from the header within the watcher's batch window each time, full tier (fieldSpecs.ts
// SQLITE_INCLUDER_DELETED_AGAIN; issue 28).
import { defineFieldSuite } from './fieldSuite.js';
import { SQLITE_INCLUDER_DELETED_AGAIN } from './fieldSpecs.js';

defineFieldSuite(SQLITE_INCLUDER_DELETED_AGAIN, 'full tier, the includer deleted and restored again and again');
