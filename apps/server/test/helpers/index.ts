export * from './db.js';
export * from './app.js';
