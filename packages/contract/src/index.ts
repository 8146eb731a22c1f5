export * from './common.js';
export * from './questions.js';
export * from './users.js';
export * from './social.js';
export * from './reference.js';
export * from './insights.js';
export * from './live.js';
export * from './paths.js';
