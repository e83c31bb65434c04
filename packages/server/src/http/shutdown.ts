// Graceful stop: no new connections, idle keep-alive connections closed at once (also those that
// never sent a request, which Node's own idle sweep leaves open), calls in flight finish within a
// grace period, then the app's close hooks write out every settled charge.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How often idle connections are swept while calls drain. */
const SWEEP_MS = 50;

export interface ConnectionTracker {
  /** Closes every connection that is not carrying a request now. */
  closeIdle(): void;
  /** Closes every connection, in flight or not. */
  closeAll(): void;
}

/** Installed before listening: one listener per connection, nothing per request. */
export function trackConnections(server: Server): ConnectionTracker {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return {
    closeIdle() {
      server.closeIdleConnections();
      // A connection a browser or balancer opened ahead and never used is not "idle" to Node.
      for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
    },
    closeAll() {
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
    },
  };
}

/**
 * Closes the app: stops accepting, lets calls in flight finish for up to `graceMs`, then cuts what
 * is left. Resolves once the app's close hooks (billing flush included) have run; true when every
 * call finished within the grace period.
 */
export async function closeGracefully(
  app: FastifyInstance,
  connections: ConnectionTracker,
  graceMs: number,
): Promise<boolean> {
  let drained = true;
  const sweep = setInterval(() => connections.closeIdle(), SWEEP_MS);
  const deadline = setTimeout(() => {
    drained = false;
    connections.closeAll();
  }, graceMs);
  try {
    const closing = app.close();
    connections.closeIdle();
    await closing;
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
  return drained;
}
