export * from './constants.js';
export * from './validators.js';
export * from './messages.js';
export * from './api.js';
export * from './inventory.js';
export * from './schedule.js';
export * from './gb.js';
export * from './gb-devices.js';
