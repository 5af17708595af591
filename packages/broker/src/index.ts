export * from './paths.js';
export * from './daemonFile.js';
export * from './processInfo.js';
export * from './broker.js';
export * from './discovery.js';
export * from './spawnBroker.js';
export * from './status.js';
export * from './stop.js';
