import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createEndOfTurn } from '../../../src/http/end-responses-per-turn.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
    ),
  );
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Stands in for a response whose `end` throws: the only way to reach that path on demand. */
function failingResponse(): ServerResponse & { destroyed: boolean } {
  const res = {
    destroyed: false,
    end() {
      throw new Error('write after the client left');
    },
    destroy() {
      res.destroyed = true;
    },
  };
  return res as unknown as ServerResponse & { destroyed: boolean };
}

describe('createEndOfTurn', () => {
  it('ends a response when the turn ends, not when it is handed over (chunked: no content-length)', async () => {
    const endAtTurnEnd = createEndOfTurn((error) => {
      throw error;
    });
    const seen: { endedAtHandOver: boolean; endedInDone: boolean; failure: unknown }[] = [];
    const base = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.cork();
        res.write('hello ');
        const record = { endedAtHandOver: true, endedInDone: false, failure: undefined as unknown };
        seen.push(record);
        endAtTurnEnd(res, 'world', (failure) => {
          record.failure = failure;
          record.endedInDone = res.writableEnded;
        });
        record.endedAtHandOver = res.writableEnded;
      }),
    );
    const response = await fetch(base);
    expect(await response.text()).toBe('hello world');
    expect(seen).toEqual([{ endedAtHandOver: false, endedInDone: true, failure: null }]);
  });

  it('ends every response of a busy turn with its own body', async () => {
    const endAtTurnEnd = createEndOfTurn((error) => {
      throw error;
    });
    let done = 0;
    const base = await listen(
      createServer((req, res) => {
        const body = `answer to ${req.url}`;
        res.writeHead(200, { 'content-length': String(body.length + 1) });
        res.cork();
        res.write(body);
        endAtTurnEnd(res, '.', () => done++);
      }),
    );
    const paths = Array.from({ length: 64 }, (_, i) => `/q${i}`);
    const bodies = await Promise.all(paths.map(async (p) => (await fetch(`${base}${p}`)).text()));
    expect(bodies).toEqual(paths.map((p) => `answer to ${p}.`));
    expect(done).toBe(64);
  });

  it('ends every response of the turn before it runs any done', async () => {
    const endAtTurnEnd = createEndOfTurn((error) => {
      throw error;
    });
    const order: string[] = [];
    const first = {
      end: () => order.push('end first'),
      destroy() {},
    } as unknown as ServerResponse;
    const base = await listen(
      createServer((_req, res) => {
        res.writeHead(200);
        res.cork();
        endAtTurnEnd(first, '', () => order.push(`done first (second ended: ${res.writableEnded})`));
        endAtTurnEnd(res, 'second', () => order.push('done second'));
      }),
    );
    expect(await (await fetch(base)).text()).toBe('second');
    expect(order).toEqual(['end first', 'done first (second ended: true)', 'done second']);
  });

  it('destroys a response that fails to end, reports it to its done, and still ends the others', async () => {
    const reported: unknown[] = [];
    const endAtTurnEnd = createEndOfTurn((error) => reported.push(error));
    const failing = failingResponse();
    const failures: unknown[] = [];
    const base = await listen(
      createServer((_req, res) => {
        res.writeHead(200);
        res.cork();
        endAtTurnEnd(failing, '', (failure) => failures.push(failure));
        endAtTurnEnd(res, 'still sent', (failure) => failures.push(failure));
      }),
    );
    expect(await (await fetch(base)).text()).toBe('still sent');
    expect(failing.destroyed).toBe(true);
    expect(failures).toHaveLength(2);
    expect((failures[0] as Error).message).toBe('write after the client left');
    expect(failures[1]).toBeNull();
    expect(reported).toEqual([]);
  });

  it('reports an error thrown by a done and still ends the rest of the turn', async () => {
    const reported: unknown[] = [];
    const endAtTurnEnd = createEndOfTurn((error) => reported.push(error));
    const quiet = { end() {}, destroy() {} } as unknown as ServerResponse;
    const base = await listen(
      createServer((_req, res) => {
        res.writeHead(200);
        res.cork();
        endAtTurnEnd(quiet, '', () => {
          throw new Error('bookkeeping failed');
        });
        endAtTurnEnd(res, 'still sent', () => {});
      }),
    );
    expect(await (await fetch(base)).text()).toBe('still sent');
    expect(reported).toHaveLength(1);
    expect((reported[0] as Error).message).toBe('bookkeeping failed');
  });
});
