export * from './frontMatter.js';
export * from './skill.js';
export * from './registry.js';
export * from './render.js';
export * from './phaseTracker.js';
export * from './toolMentions.js';
export * from './installer.js';
export * from './skillsDoc.js';
