/** The Odds API v4 adapter: URLs, credit arithmetic, payload parsers and fetch functions. */
export * from './credits.js';
export * from './fetch.js';
export * from './odds-format.js';
export * from './parse.js';
export * from './schemas.js';
export * from './sport-keys.js';
export * from './teams.js';
export * from './urls.js';
