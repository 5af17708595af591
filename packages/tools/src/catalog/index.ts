/**
 * What a tool is and how it is described: the definition every handler uses (toolDefinition), the
 * shared zod schemas, argument-name checks and the original agent-lsp's argument names, and the
 * documentation of each tool (details, worked examples under docs/, docs/tools.md rendering).
 * The list of all tools is ../catalog.ts (it gathers the handlers of ../tools/).
 */
export * from './toolDefinition.js';
export * from './schemas.js';
export * from './lspSchemas.js';
export * from './listedByDescription.js';
export * from './argumentNames.js';
export * from './originalArguments.js';
export * from './toolExample.js';
export * from './examples.js';
export * from './toolDetails.js';
export * from './toolsDoc.js';
