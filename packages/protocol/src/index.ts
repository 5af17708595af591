export * from './disposable.js';
export * from './errors.js';
export * from './position.js';
export * from './pattern.js';
export * from './uri.js';
export * from './pathContainment.js';
export * from './textEdits.js';
export * from './agentLspProtocol.js';
