import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Makes `server.close()` also end the connections that have not sent a single byte. Browsers open
 * such connections ahead of need (Chrome keeps a speculative one for minutes), and Node's close()
 * and closeIdleConnections() leave them open in the Node versions this server runs on
 * (nodejs/node#63452, fixed later by #63470): a graceful shutdown then waited for the browser, and
 * SIGTERM ended in the forced exit 15 s later. A connection that has sent part of a request is
 * left to finish it, or to the headers timeout.
 */
export function endSilentConnectionsOnClose(server: Server): void {
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  const close = server.close.bind(server);
  server.close = (callback?: (error?: Error) => void) => {
    // Not listening any more once close() returns: no new connection can join the sweep's list.
    close(callback);
    for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
    return server;
  };
}
