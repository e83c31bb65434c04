// Security headers for the console and its API (not the relay: SDKs ignore them and the hot path
// would pay for them on every call).
import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { AppContext } from '../app-context.js';
import { GUARD_SCRIPT_HASH } from './first-paints.js';

const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';
const TELEGRAM_ORIGIN = 'https://telegram.org';

/** The origin of an option's URL, or null when it holds none. */
function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/**
 * The console runs only its own scripts; the two sign-in widgets' scripts are allowed only while
 * their login method is on, and forms post only here or to the configured payment gateway.
 */
export function securityHeaders(ctx: AppContext): FastifyHelmetOptions {
  const o = ctx.options;
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: [
          "'self'",
          // The one inline script: a first paint's guard (first-paints.ts).
          GUARD_SCRIPT_HASH,
          () => (o.get('TurnstileCheckEnabled') ? TURNSTILE_ORIGIN : "'self'"),
          () => (o.get('TelegramOAuthEnabled') ? TELEGRAM_ORIGIN : "'self'"),
        ],
        // antd writes its component styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // The logo, QR codes and Markdown pages may name images anywhere.
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        // Task results play where the upstream keeps them (Suno songs on its CDN).
        mediaSrc: ["'self'", 'https:', 'http:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        // Chat links embed the operator's chat front-ends; Turnstile and Telegram draw in frames.
        frameSrc: ["'self'", 'https:', 'http:'],
        frameAncestors: ["'none'"],
        formAction: ["'self'", () => originOf(o.get('PayAddress')) ?? "'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
      },
    },
    // Strict-Transport-Security is the TLS terminator's to send: a plain-HTTP site must stay reachable.
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'same-origin' },
    // Older browsers' form of frame-ancestors 'none'.
    xFrameOptions: { action: 'deny' },
  };
}
