import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export type ProxyMode = 'forward' | 'reject' | 'hang';

/**
 * A TCP proxy between one instance and PostgreSQL that can misbehave the way a network or a
 * database does: `cut()` destroys every open connection at once (a restart, a failover, a NAT
 * timeout); `hang` accepts connections and forwards nothing, and freezes the open ones (a database
 * that stopped answering); `reject` closes each new connection at once (a database that is down).
 */
export class FaultProxy {
  mode: ProxyMode = 'forward';
  private readonly sockets = new Set<Socket>();
  private server: Server | null = null;
  port = 0;

  constructor(
    private readonly target: { host: string; port: number },
    mode: ProxyMode = 'forward',
  ) {
    this.mode = mode;
  }

  async start(): Promise<this> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** Destroys every connection open now, on both sides. */
  cut(): number {
    const count = this.sockets.size;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    return count;
  }

  /** Stops forwarding: open connections freeze, new ones are accepted and never answered. */
  hang(): void {
    this.mode = 'hang';
    for (const socket of this.sockets) {
      socket.unpipe();
      socket.pause();
    }
  }

  /** Back to forwarding; connections frozen by a hang are closed (the database "came back"). */
  restore(): void {
    this.cut();
    this.mode = 'forward';
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private accept(client: Socket): void {
    client.on('error', () => undefined);
    if (this.mode === 'reject') {
      client.destroy();
      return;
    }
    this.sockets.add(client);
    client.once('close', () => this.sockets.delete(client));
    if (this.mode === 'hang') {
      client.pause();
      return;
    }
    const upstream = connect(this.target.port, this.target.host);
    upstream.on('error', () => client.destroy());
    this.sockets.add(upstream);
    upstream.once('close', () => {
      this.sockets.delete(upstream);
      client.destroy();
    });
    client.once('close', () => upstream.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
