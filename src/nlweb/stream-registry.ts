import { clientKey } from '../http-primitives/index.js';

export interface StreamLimits {
  /** Open event streams in total. */
  maxStreams: number;
  /** Open event streams per client (IPv4 address, or IPv6 /64 network). */
  maxStreamsPerClient: number;
}

/**
 * Counts open event streams, in total and per client, so one client (or everyone together)
 * cannot hold an unbounded number of connections open.
 */
export class StreamRegistry {
  private total = 0;
  private readonly byClient = new Map<string, number>();

  constructor(private readonly limits: StreamLimits) {}

  get active(): number {
    return this.total;
  }

  activeFor(ip: string): number {
    return this.byClient.get(clientKey(ip)) ?? 0;
  }

  /** A release function when a slot is free (call it once the stream has ended), else null. */
  tryAcquire(ip: string): (() => void) | null {
    const key = clientKey(ip);
    const mine = this.byClient.get(key) ?? 0;
    if (this.total >= this.limits.maxStreams || mine >= this.limits.maxStreamsPerClient) return null;
    this.total++;
    this.byClient.set(key, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.byClient.get(key) ?? 1) - 1;
      if (left === 0) this.byClient.delete(key);
      else this.byClient.set(key, left);
    };
  }
}
