/**
 * Code actions: listing what a server offers for a range, keeping offered actions by id, and
 * turning one into a previewed or applied edit (suggest_fixes, apply_fix).
 */
export * from './actionEdit.js';
export * from './actionList.js';
export * from './actionStore.js';
