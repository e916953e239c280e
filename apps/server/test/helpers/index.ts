export * from './db.js';
export * from './app.js';
export * from './wait.js';
export * from './ws.js';
export * from './seeded-db.js';
