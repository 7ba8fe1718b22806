export * from './schema.js';
export * from './profiles.js';
export * from './features.js';
export { describeRule, matchStrength } from './rules.js';
export * from './registry.js';
export * from './combat.js';
export * from './classify.js';
export * from './as-of.js';
