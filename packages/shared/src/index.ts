export * from './constants/roles.js';
export * from './constants/statuses.js';
export * from './constants/channel-types.js';
export * from './constants/options.js';
export * from './constants/default-prices.js';
export * from './messages.js';
