export * from './createServer.js';
export * from './stdio.js';
export * from './toolRunner.js';
