import type { ServerResponse } from 'node:http';

/**
 * Ends a response whose head and body are already written, corked; `done` runs once it is ended
 * (or failed to end), for what counts a sent answer.
 */
export type EndAtTurnEnd = (
  res: ServerResponse,
  last: string | Buffer,
  done: (error: unknown) => void,
) => void;

/**
 * Ends responses all together at the end of the event loop's turn (after the poll phase, in
 * `setImmediate`), instead of one by one as each request is answered: what uWebSockets calls
 * corking the loop iteration. Each response's bytes still leave in one `writev`; what changes is
 * when. Under load one turn answers many requests, and their writes leaving back to back, after all
 * of the turn's JavaScript, cost the kernel much less per answer: on loopback the sender's core
 * also delivers the bytes and wakes the reading client, and a client woken for the first of several
 * answers reads the others without being woken again. Measured with perf on popular `/ask` (32
 * keep-alive connections, docs/benchmarks-history.md): `writev` 23.5 → 13.6 µs per answer, waking the
 * client 8.2 → 2.9 µs, throughput +20 %. A request alone in its turn waits only for the poll phase
 * to end.
 *
 * The responses wait corked, so nothing is sent before their turn ends. All of a turn's responses
 * are ended before any `done` runs. One whose `end` throws is destroyed and its error given to its
 * own `done`, and the others still end; an error thrown by a `done` goes to `report`.
 */
export function createEndOfTurn(report: (error: unknown) => void): EndAtTurnEnd {
  let waiting: { res: ServerResponse; last: string | Buffer; done: (error: unknown) => void }[] = [];
  const endAll = (): void => {
    const ending = waiting;
    waiting = [];
    // First every write, back to back; then the bookkeeping (metrics, the log line), so that no
    // JavaScript runs between two answers leaving.
    const failures: unknown[] = [];
    for (const { res, last } of ending) {
      let failure: unknown = null;
      try {
        // Node 22+ keeps a chunked response's corked writes apart and, on 24.21, drops the
        // chunk `end` brings while they wait: uncork such a response first (two writes). A
        // response with a content-length (the /ask fast path's) still leaves in one writev.
        if (res.chunkedEncoding) res.uncork();
        res.end(last);
      } catch (error) {
        failure = error;
        res.destroy();
      }
      failures.push(failure);
    }
    ending.forEach(({ done }, i) => {
      try {
        done(failures[i]);
      } catch (error) {
        // One answer's bookkeeping failing must not leave the others of the turn uncounted.
        report(error);
      }
    });
  };
  return (res, last, done) => {
    waiting.push({ res, last, done });
    if (waiting.length === 1) setImmediate(endAll);
  };
}
