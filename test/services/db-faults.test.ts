import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/net.js';
import { startWebhookPeer, WEBHOOK_SECRET, type WebhookPeer } from '../support/peers.js';
import { FaultProxy } from './fault-proxy.js';
import { createTestSchema, POSTGRES_URL } from './postgres.js';
import { LIMITS_OFF } from '../support/limits.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const PG_TARGET = (() => {
  const url = new URL(POSTGRES_URL);
  return { host: url.hostname, port: Number(url.port || 5432) };
})();

/** Short timeouts so the faults play out in seconds; the same variables an operator sets. */
const TIMEOUTS = {
  DATABASE_CONNECT_TIMEOUT_MS: 2_000,
  DATABASE_QUERY_TIMEOUT_MS: 2_000,
  DELIVERY_INLINE_BUDGET_MS: 300,
};
/** The longest a lead may wait for its answer: a pooled connection, one query, the inline budget. */
const RESPONSE_BOUND_MS =
  TIMEOUTS.DATABASE_CONNECT_TIMEOUT_MS +
  TIMEOUTS.DATABASE_QUERY_TIMEOUT_MS +
  500 +
  TIMEOUTS.DELIVERY_INLINE_BUDGET_MS +
  1_500;

interface Instance {
  name: string;
  proxy: FaultProxy;
  process: ChildProcess;
  url: Promise<string>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  killedOnPurpose: boolean;
  output: string[];
}

function serve(name: string, proxy: FaultProxy, env: Record<string, string>): Instance {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
    cwd: ROOT,
    // One client sends the whole load: the abuse limits are not what this test measures.
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...LIMITS_OFF, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  let buffered = '';
  const url = new Promise<string>((done, fail) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      output.push(...lines);
      for (const line of lines) {
        const match = /"msg":"frontdoor listening on (http:\/\/[^\s"]+)/.exec(line);
        if (match) done(match[1]!);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('exit', (code) =>
      fail(new Error(`${name} exited (${code}) before listening:\n${output.join('\n')}`)),
    );
  });
  url.catch(() => undefined);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  return { name, proxy, process: child, url, exit, killedOnPurpose: false, output };
}

interface LoadStats {
  acknowledged: Set<string>;
  refused: number;
  failedWithoutAnswer: number;
  longestMs: number;
  statuses: Map<number, number>;
  retryAfterMissing: number;
}

/** Sends distinct leads in `clients` loops per instance, round the instances, until stopped. */
function steadyLoad(urls: () => string[], clients: number, stats: LoadStats) {
  let running = true;
  let sequence = 0;
  const loops = Array.from({ length: clients }, async (_, client) => {
    while (running) {
      const targets = urls();
      const url = targets[(sequence + client) % targets.length]!;
      const email = `lead-${sequence++}-c${client}@faults.example`;
      const started = performance.now();
      try {
        const response = await fetch(`${url}/api/leads`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Fault ${client}`, email, message: 'database fault test' }),
          signal: AbortSignal.timeout(60_000),
        });
        const body = (await response.json()) as { ok?: boolean };
        stats.longestMs = Math.max(stats.longestMs, performance.now() - started);
        stats.statuses.set(response.status, (stats.statuses.get(response.status) ?? 0) + 1);
        if (response.status === 200 && body.ok === true) stats.acknowledged.add(email);
        else {
          stats.refused += 1;
          if (response.status === 500 && response.headers.get('retry-after') === null)
            stats.retryAfterMissing += 1;
        }
      } catch {
        // The instance was killed under this request: no answer, so nothing was acknowledged.
        stats.failedWithoutAnswer += 1;
        await new Promise((done) => setTimeout(done, 50));
      }
      await new Promise((done) => setTimeout(done, 20));
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function readiness(url: string): Promise<string> {
  try {
    const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5_000) });
    const body = (await response.json()) as { reasons: string[] };
    return `${response.status}${body.reasons.length > 0 ? ` (${body.reasons.join('; ')})` : ''}`;
  } catch (error) {
    return `no answer (${(error as Error).name})`;
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('three instances on PostgreSQL through faulty connections', () => {
  let testSchema: Awaited<ReturnType<typeof createTestSchema>>;
  let crm: WebhookPeer;
  const instances: Instance[] = [];
  const proxies: FaultProxy[] = [];

  beforeAll(async () => {
    testSchema = await createTestSchema();
    crm = await startWebhookPeer();
  });
  afterAll(async () => {
    for (const instance of instances) instance.process.kill('SIGKILL');
    await Promise.all(instances.map((instance) => instance.exit));
    for (const proxy of proxies) await proxy.close();
    await crm?.close();
    await testSchema?.drop();
  });

  const envFor = (proxy: FaultProxy): Record<string, string> => {
    const separator = '?';
    return {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${proxy.port}/test${separator}options=${encodeURIComponent(
        `-c search_path=${testSchema.schema}`,
      )}`,
      DATABASE_POOL_SIZE: '4',
      DATABASE_CONNECT_TIMEOUT_MS: String(TIMEOUTS.DATABASE_CONNECT_TIMEOUT_MS),
      DATABASE_QUERY_TIMEOUT_MS: String(TIMEOUTS.DATABASE_QUERY_TIMEOUT_MS),
      LEAD_DELIVERY: 'crm',
      CRM_WEBHOOK_URL: crm.url,
      CRM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      DELIVERY_INLINE_BUDGET_MS: String(TIMEOUTS.DELIVERY_INLINE_BUDGET_MS),
      DELIVERY_ATTEMPT_TIMEOUT_MS: '1000',
      DELIVERY_RETRY_BASE_MS: '100',
      DELIVERY_RETRY_MAX_MS: '1000',
      DELIVERY_POLL_INTERVAL_MS: '100',
      DELIVERY_MAX_ATTEMPTS: '100',
    };
  };

  it('starts without the database, serves pages and search, refuses writes with 500, and connects when it is back', async () => {
    const proxy = await new FaultProxy(PG_TARGET, 'reject').start();
    proxies.push(proxy);
    const instance = serve('cold', proxy, envFor(proxy));
    instances.push(instance);
    const url = await instance.url;
    expect((await fetch(`${url}/`)).status).toBe(200);
    expect((await fetch(`${url}/ask?query=security`)).status).toBe(200);
    expect((await fetch(`${url}/openapi.json`)).status).toBe(200);
    expect(await readiness(url)).toMatch(/^503 \(submissions database: /);
    const started = performance.now();
    const refused = await fetch(`${url}/api/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Cold Start', email: 'cold@faults.example' }),
    });
    expect(refused.status).toBe(500);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as { code: string }).code).toBe('INTERNAL_ERROR');
    expect(performance.now() - started).toBeLessThan(RESPONSE_BOUND_MS);

    proxy.mode = 'forward';
    await waitFor(
      'ready once the database is back',
      async () => (await readiness(url)).startsWith('200'),
      15_000,
    );
    const accepted = await fetch(`${url}/api/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Cold Start', email: 'cold@faults.example' }),
    });
    expect(accepted.status).toBe(200);
    instance.killedOnPurpose = true;
    instance.process.kill('SIGTERM');
    await instance.exit;
  });

  it('starts while the database hangs, and answers writes within the timeouts until it answers again', async () => {
    const proxy = await new FaultProxy(PG_TARGET, 'hang').start();
    proxies.push(proxy);
    const instance = serve('hung-start', proxy, envFor(proxy));
    instances.push(instance);
    const url = await instance.url;
    expect((await fetch(`${url}/ask?query=security`)).status).toBe(200);
    expect(await readiness(url)).toMatch(/^503 \(submissions database: /);
    const started = performance.now();
    const refused = await fetch(`${url}/api/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Hung Start', email: 'hung@faults.example' }),
    });
    expect(refused.status).toBe(500);
    expect(performance.now() - started).toBeLessThan(RESPONSE_BOUND_MS);
    proxy.restore();
    await waitFor(
      'ready once the database answers',
      async () => (await readiness(url)).startsWith('200'),
      15_000,
    );
    instance.killedOnPurpose = true;
    instance.process.kill('SIGTERM');
    await instance.exit;
  });

  it(
    'loses nothing and crashes nothing through cut connections, a hanging database and kill -9',
    { timeout: 240_000 },
    async () => {
      for (let n = 0; n < 3; n += 1) {
        const proxy = await new FaultProxy(PG_TARGET).start();
        proxies.push(proxy);
        instances.push(serve(`instance-${n + 1}`, proxy, envFor(proxy)));
      }
      const cluster = instances.slice(-3);
      const urls = new Map<Instance, string>();
      for (const instance of cluster) urls.set(instance, await instance.url);
      const live = () => [...urls.values()];

      const stats: LoadStats = {
        acknowledged: new Set(),
        refused: 0,
        failedWithoutAnswer: 0,
        longestMs: 0,
        statuses: new Map(),
        retryAfterMissing: 0,
      };
      const readyLog: Record<string, string[]> = {};
      const sample = async (label: string) => {
        readyLog[label] = await Promise.all(
          cluster.map(async (instance) => (urls.has(instance) ? readiness(urls.get(instance)!) : 'down')),
        );
      };
      const traffic = steadyLoad(live, 6, stats);
      await sleep(3_000);
      await sample('before faults');

      // 1. Every connection to the database is cut at once.
      const cut = cluster.map((instance) => instance.proxy.cut());
      await sample('right after the cut');
      await sleep(3_000);
      await sample('3 s after the cut');

      // 2. The database hangs: connections are accepted and nothing is answered.
      for (const instance of cluster) instance.proxy.hang();
      await sleep(2_500);
      await sample('during the hang');
      await sleep(3_500);
      for (const instance of cluster) instance.proxy.restore();
      await waitFor(
        'ready after the hang',
        async () => {
          await sample('after the hang');
          return readyLog['after the hang']!.every((status) => status.startsWith('200'));
        },
        20_000,
      );
      await sleep(2_000);

      // 3. One instance is killed (kill -9) under load and started again.
      const victim = cluster[1]!;
      victim.killedOnPurpose = true;
      urls.delete(victim);
      victim.process.kill('SIGKILL');
      await victim.exit;
      await sample('instance 2 killed');
      await sleep(1_000);
      const restarted = serve(`${victim.name}-restarted`, victim.proxy, envFor(victim.proxy));
      instances.push(restarted);
      cluster[1] = restarted;
      urls.set(restarted, await restarted.url);
      await sample('instance 2 restarted');
      await sleep(3_000);
      await traffic.stop();
      await sample('after the load');

      // Reconcile: every acknowledged lead is stored and delivered; count the repeats.
      const db = new pg.Client({ connectionString: testSchema.url });
      await db.connect();
      let stored: { id: string; email: string; state: string }[] = [];
      try {
        await waitFor(
          'every stored lead delivered',
          async () => {
            const result = await db.query<{ id: string; email: string; state: string }>(
              `SELECT s.id, s.fields::jsonb->>'email' AS email, o.state FROM frontdoor_submissions s
             JOIN frontdoor_outbox o ON o.submission_id = s.id WHERE s.fields::jsonb->>'email' LIKE 'lead-%'`,
            );
            stored = result.rows;
            return stored.every((row) => row.state === 'delivered');
          },
          60_000,
        );
      } finally {
        await db.end();
      }
      const idByEmail = new Map(stored.map((row) => [row.email, row.id]));
      const storedIds = new Set(stored.map((row) => row.id));
      const hooks = crm.received
        .map((hook) => String(hook.headers['webhook-id']))
        .filter((id) => storedIds.has(id));
      const deliveredIds = new Set(hooks);
      const lostUnstored = [...stats.acknowledged].filter((email) => !idByEmail.has(email));
      const lostUndelivered = [...stats.acknowledged].filter(
        (email) => !deliveredIds.has(idByEmail.get(email) ?? ''),
      );
      const crashed = instances.filter(
        (instance) => !instance.killedOnPurpose && instance.process.exitCode !== null,
      );
      const logLines = instances.flatMap((instance) => instance.output);
      const figures = {
        acknowledged: stats.acknowledged.size,
        stored: stored.length,
        storedButNotAcknowledged: stored.filter((row) => !stats.acknowledged.has(row.email)).length,
        delivered: stored.filter((row) => deliveredIds.has(row.id)).length,
        receiverCalls: hooks.length,
        duplicates: hooks.length - deliveredIds.size,
        lost: new Set([...lostUnstored, ...lostUndelivered]).size,
        crashedInstances: crashed.length,
        answersByStatus: Object.fromEntries(stats.statuses),
        requestsCutByKill: stats.failedWithoutAnswer,
        longestLeadResponseMs: Math.round(stats.longestMs),
        responseBoundMs: RESPONSE_BOUND_MS,
        connectionsCut: cut.reduce((sum, count) => sum + count, 0),
        connectionLostLogLines: logLines.filter((line) => line.includes('database connection lost')).length,
        leaseLostLogLines: logLines.filter((line) => line.includes('delivery lease lost')).length,
        resultNotRecordedLogLines: logLines.filter((line) =>
          line.includes('delivery result could not be recorded'),
        ).length,
        nonJsonOutputLines: logLines.filter((line) => line.trim() !== '' && !line.trim().startsWith('{'))
          .length,
        readyz: readyLog,
      };
      console.log(`database fault figures:\n${JSON.stringify(figures, null, 2)}`);

      expect(lostUnstored, 'acknowledged but not stored').toEqual([]);
      expect(lostUndelivered, 'acknowledged but never delivered').toEqual([]);
      expect(crashed.map((instance) => `${instance.name}: ${instance.output.slice(-5).join('\n')}`)).toEqual(
        [],
      );
      expect(stats.longestMs).toBeLessThan(RESPONSE_BOUND_MS);
      expect(stats.retryAfterMissing).toBe(0);
      expect(stats.acknowledged.size).toBeGreaterThan(100);
      expect(figures.answersByStatus[500] ?? 0).toBeGreaterThan(0);
      expect(readyLog['during the hang']!.every((status) => status.startsWith('503'))).toBe(true);
      expect(readyLog['after the load']!.every((status) => status.startsWith('200'))).toBe(true);
      // A delivered lead whose result could not be recorded is never logged as delivered.
      expect(logLines.filter((line) => line.includes('Unhandled') || line.includes('uncaught'))).toEqual([]);
    },
  );
});
