// Per-IP limits for the sign-in routes (login, register, verification, reset), from the configuration.
// Use as `config: { auth: 'public', rateLimit: criticalRateLimit(ctx.config) }`.
import type { Config } from '../config.js';

export const criticalRateLimit = (config: Config) => ({
  max: config.criticalRateLimit.max,
  timeWindow: config.criticalRateLimit.windowMs,
});
