export * from './workspace.js';
export { askAgainWhileModified, ASK_AGAIN_DELAYS_MS } from './askAgain.js';
export * from './pathResolver.js';
export * from './rootInference.js';
export * from './connectionMode.js';
export * from './workspaceEvents.js';
export * from './prefetch/index.js';
