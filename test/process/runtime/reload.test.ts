import { rmSync, unlinkSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { LiveContent } from '../../../src/http/index.js';
import { loadContent } from '../../../src/runtime/content-load.js';
import { ContentReloader } from '../../../src/runtime/content-reload.js';
import { startServer, type RunningServer } from '../../../src/runtime/server.js';
import { LIMITS_OFF } from '../../support/limits.js';
import { contentFolder, QUOTE_FORM_YAML } from '../../support/files.js';
import { waitFor } from '../../support/net.js';

const OLD = {
  'index.md': '---\ntitle: Home\n---\n\nWelcome to the example site about solar kettles.\n',
  'docs/kettle.md':
    '# Solar kettle\n\nBoils water with sunlight.\n\n## Cleaning\n\nRinse the mirror with vinegar.\n',
  'docs/mirror.md': '# Mirror care\n\nPolish the mirror monthly.\n',
};
const NEW_KETTLE = '# Sun kettle\n\nBoils water with sunlight, now twice as fast.\n';
const ADDED = '# Kettle stand\n\nA stand that holds the kettle in the focus.\n';

interface Logged {
  level: number;
  msg: string;
  file?: string;
  line?: number | null;
}

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function serve(watch: 'on' | 'off', extra: Record<string, string> = {}) {
  const contentDir = contentFolder({ ...OLD, ...extra });
  const dataDir = mkdtempSync(join(tmpdir(), 'frontdoor-reload-'));
  cleanup.push(() => rmSync(contentDir, { recursive: true, force: true }));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    CONTENT_DIR: contentDir,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    CONTENT_WATCH: watch,
    // The load below runs until the reload lands, however long that takes: no quota may end it.
    ...LIMITS_OFF,
  });
  const records: Logged[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => records.push(JSON.parse(line) as Logged) },
  );
  const server = await startServer(config, logger);
  cleanup.push(() => server.close());
  return { server, contentDir, records };
}

/** The answer without its per-request id, so two answers to the same question compare equal. */
const withoutRequestId = (body: string) => body.replace(/"request_id":"[^"]*"/, '"request_id":""');

async function askKettle(server: RunningServer): Promise<string> {
  const response = await fetch(`${server.url}/ask?query=kettle`);
  expect(response.status).toBe(200);
  return withoutRequestId(await response.text());
}

/** Waits for `probe` to hold (a change picked up by the watcher arrives when it arrives). */
const eventually = (probe: () => Promise<boolean>, what: string) => waitFor(what, probe, 30_000);

describe('content reload', () => {
  it('swaps site, search and discovery documents at once under load, with no failed request', async () => {
    const { server, contentDir, records } = await serve('off');
    const oldAnswer = await askKettle(server);
    expect(oldAnswer).toContain('Solar kettle');

    let stop = false;
    let answered = 0;
    let reloadedAt = Infinity;
    const failures: string[] = [];
    /** Per client, in order: whether each answer was the old (0) or new (1) one, and when it started. */
    const seen: { version: number; startedAt: number }[][] = [];
    let newAnswer: string | null = null;
    const client = async (id: number) => {
      const mine: { version: number; startedAt: number }[] = [];
      seen.push(mine);
      const paths = ['/ask?query=kettle', '/docs/kettle', '/sitemap.xml', '/llms.txt', '/ask?query=stand'];
      for (let i = id; !stop; i++) {
        const path = paths[i % paths.length]!;
        const startedAt = performance.now();
        try {
          const response = await fetch(`${server.url}${path}`);
          const body = await response.text();
          answered += 1;
          if (response.status !== 200) failures.push(`${path}: ${response.status}`);
          else if (path === '/ask?query=kettle') {
            const answer = withoutRequestId(body);
            if (answer === oldAnswer) mine.push({ version: 0, startedAt });
            else if (answer === newAnswer || (newAnswer === null && answer.includes('Sun kettle'))) {
              newAnswer ??= answer;
              mine.push({ version: 1, startedAt });
            } else
              failures.push(`an answer that is neither the old nor the new one: ${answer.slice(0, 300)}`);
          } else if (
            path === '/docs/kettle' &&
            !body.includes('Solar kettle') &&
            !body.includes('Sun kettle')
          )
            failures.push('a page that is neither the old nor the new one');
        } catch (error) {
          failures.push(`${path}: ${(error as Error).message}`);
        }
      }
    };
    const clients = Array.from({ length: 6 }, (_, id) => client(id));

    await waitFor('the clients under way', () => answered >= 30);
    writeFileSync(join(contentDir, 'docs/kettle.md'), NEW_KETTLE);
    writeFileSync(join(contentDir, 'docs/stand.md'), ADDED);
    const outcome = await server.reload('test');
    reloadedAt = performance.now();
    expect(outcome).toMatchObject({ status: 'swapped', generation: 2, pages: 4 });
    // Only the changed and the added page were parsed again; the others are the pages serving before.
    expect(records.find((r) => r.msg === 'content reloaded')).toMatchObject({
      filesParsed: 2,
      timings: { readMs: expect.any(Number), buildMs: expect.any(Number), indexMs: expect.any(Number) },
    });
    const answeredAtSwap = answered;
    await waitFor('requests after the swap', () => answered >= answeredAtSwap + 30);
    stop = true;
    await Promise.all(clients);

    expect(failures).toEqual([]);
    for (const answers of seen) {
      // Once a client saw the new site it never sees the old one again, and a request that started
      // after the reload returned gets the new one.
      const firstNew = answers.findIndex((a) => a.version === 1);
      if (firstNew >= 0) expect(answers.slice(firstNew).every((a) => a.version === 1)).toBe(true);
      for (const a of answers) if (a.startedAt > reloadedAt) expect(a.version).toBe(1);
    }
    expect(seen.flat().some((a) => a.version === 0)).toBe(true);
    expect(seen.flat().some((a) => a.version === 1)).toBe(true);

    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
    expect(sitemap).toContain('/docs/stand</loc>');
    const llms = await (await fetch(`${server.url}/llms.txt`)).text();
    expect(llms).toContain('Sun kettle');
    expect(llms).not.toContain('Solar kettle');
    const docs = await (await fetch(`${server.url}/docs`)).text();
    expect(docs).toContain('Kettle stand');
    expect((await fetch(`${server.url}/docs/stand`)).status).toBe(200);
    expect(server.context.ask.isCached({ text: 'kettle', maxResults: 10, conversationId: null })).toBe(true);
  });

  it('refuses a reload that finds a content error, logs it with file and line, and keeps serving the old site', async () => {
    const { server, contentDir, records } = await serve('off');
    const oldAnswer = await askKettle(server);
    writeFileSync(join(contentDir, 'docs/kettle.md'), NEW_KETTLE);
    writeFileSync(join(contentDir, 'docs/broken.md'), '---\ntitle: Broken\ntags: [one, two\n---\n\nText.\n');

    const outcome = await server.reload('test');
    expect(outcome.status).toBe('refused');
    const errors = records.filter((r) => r.level === 50 && r.file === 'docs/broken.md');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.line).toBeGreaterThan(1);
    expect(errors[0]!.msg).toMatch(/^content: front matter is not valid YAML/);
    expect(records.some((r) => r.msg.startsWith('content reload refused: 1 content error(s)'))).toBe(true);
    expect(await askKettle(server)).toBe(oldAnswer);
    expect((await fetch(`${server.url}/docs/broken`)).status).toBe(404);

    // Fixed, the next reload goes through.
    writeFileSync(join(contentDir, 'docs/broken.md'), '---\ntitle: Fixed\ntags: [one, two]\n---\n\nText.\n');
    expect(await server.reload('test')).toMatchObject({ status: 'swapped' });
    expect(await askKettle(server)).toContain('Sun kettle');
    expect((await fetch(`${server.url}/docs/broken`)).status).toBe(200);
  });

  it('takes a reload of a site that started with errors, refusing only errors it did not have', async () => {
    // As javascript.info's 1,813 untitled exercise files: skipped at start-up, they refused every reload.
    const untitled = 'Only a body, no title.\n';
    const { server, contentDir, records } = await serve('off', {
      'exercises/one.md': untitled,
      'exercises/two.md': untitled,
    });
    writeFileSync(join(contentDir, 'docs/kettle.md'), NEW_KETTLE);
    expect(await server.reload('test')).toMatchObject({ status: 'swapped' });
    expect(await askKettle(server)).toContain('Sun kettle');

    // A third untitled file is an error the serving site does not have: refused, and only it is listed.
    writeFileSync(join(contentDir, 'exercises/three.md'), untitled);
    writeFileSync(join(contentDir, 'docs/mirror.md'), '# Mirror care\n\nPolish the mirror weekly.\n');
    expect(await server.reload('test')).toMatchObject({ status: 'refused' });
    expect(records.some((r) => r.msg.startsWith('content reload refused: 1 content error(s)'))).toBe(true);
    expect((await fetch(`${server.url}/docs/mirror`).then((r) => r.text())).includes('weekly')).toBe(false);
  });

  it('does nothing when the content did not change', async () => {
    const { server } = await serve('off');
    const site = server.context.site;
    expect(await server.reload('test')).toEqual({ status: 'unchanged' });
    expect(server.context.site).toBe(site);
  });

  it('says once, after a reload, that changed forms need a restart, and keeps serving the forms it started with', async () => {
    const { server, contentDir, records } = await serve('off');
    const formsWarnings = () =>
      records.filter((record) => record.level === 40 && /restart Frontdoor/.test(record.msg));
    writeFileSync(join(contentDir, '_site.yaml'), `name: Solar kettles\n${QUOTE_FORM_YAML}`);
    expect((await server.reload('test')).status).toBe('swapped');
    expect(formsWarnings()).toHaveLength(1);
    expect(formsWarnings()[0]!.file).toBe('_site.yaml');
    expect(await (await fetch(`${server.url}/openapi.json`)).text()).not.toContain('requestQuote');
    // A page changed, the forms not again: no second warning.
    writeFileSync(join(contentDir, 'docs/kettle.md'), NEW_KETTLE);
    expect((await server.reload('test')).status).toBe('swapped');
    expect(formsWarnings()).toHaveLength(1);
    // Back to the forms it serves: nothing to restart for.
    writeFileSync(join(contentDir, '_site.yaml'), 'name: Solar kettles\n');
    expect((await server.reload('test')).status).toBe('swapped');
    expect(formsWarnings()).toHaveLength(1);
  });

  it('reloads on SIGHUP', async () => {
    const { server, contentDir } = await serve('off');
    writeFileSync(join(contentDir, 'docs/kettle.md'), NEW_KETTLE);
    process.kill(process.pid, 'SIGHUP');
    await eventually(async () => (await askKettle(server)).includes('Sun kettle'), 'the SIGHUP reload');
  });

  it('picks up changed, added and removed pages by watching CONTENT_DIR', async () => {
    const { server, contentDir } = await serve('on');
    writeFileSync(join(contentDir, 'docs/kettle.md'), NEW_KETTLE);
    await eventually(async () => (await askKettle(server)).includes('Sun kettle'), 'a changed page');
    writeFileSync(join(contentDir, 'docs/stand.md'), ADDED);
    await eventually(async () => (await fetch(`${server.url}/docs/stand`)).status === 200, 'an added page');
    unlinkSync(join(contentDir, 'docs/mirror.md'));
    await eventually(async () => (await fetch(`${server.url}/docs/mirror`)).status === 404, 'a removed page');
    expect(await (await fetch(`${server.url}/sitemap.xml`)).text()).not.toContain('/docs/mirror<');
  });

  it('lets the old site be garbage-collected after a swap', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { server, contentDir } = await serve('off');
    // Serve a page, an answer and the discovery documents, so every per-site cache holds something.
    await askKettle(server);
    await (await fetch(`${server.url}/docs/kettle`)).text();
    await (await fetch(`${server.url}/llms.txt`)).text();
    const oldSite = new WeakRef(server.context.site);
    const oldAsk = new WeakRef(server.context.ask);
    writeFileSync(join(contentDir, 'docs/kettle.md'), NEW_KETTLE);
    expect(await server.reload('test')).toMatchObject({ status: 'swapped' });
    await askKettle(server);
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(oldSite.deref()).toBeUndefined();
    expect(oldAsk.deref()).toBeUndefined();
  });

  it('frees the old site itself once the new one serves (V8 alone would wait for its heap limit)', async () => {
    const { server, contentDir } = await serve('off');
    await askKettle(server);
    const oldAsk = new WeakRef(server.context.ask);
    writeFileSync(join(contentDir, 'docs/kettle.md'), NEW_KETTLE);
    expect(await server.reload('test')).toMatchObject({ status: 'swapped' });
    // No gc() here: the reload collected the old generation after the swap.
    await new Promise((resolve) => setImmediate(resolve));
    expect(oldAsk.deref()).toBeUndefined();
  });

  it('frees the old site only once the start-up snapshot, still being written, lets it go', async () => {
    const contentDir = contentFolder(OLD);
    const dataDir = mkdtempSync(join(tmpdir(), 'frontdoor-reload-'));
    cleanup.push(() => rmSync(contentDir, { recursive: true, force: true }));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const config = { contentDir, dataDir, publicBaseUrl: 'http://127.0.0.1' };
    const silent = pino({ level: 'silent' });
    // As the real start-up save does (its pending promise holds the scope the ask service is in),
    // a slow save (an fsync on a busy disk) holds the first generation for 300 ms.
    const start = async () => {
      const loaded = (await loadContent(config, silent))!;
      let held: unknown = loaded.generation.ask;
      const startupSaved = new Promise<void>((resolve) =>
        setTimeout(() => {
          held = null;
          resolve();
        }, 300),
      );
      const content = new LiveContent(loaded.generation);
      const reloader = new ContentReloader(
        config,
        silent,
        content,
        loaded.contentHash,
        loaded.build,
        startupSaved.then(() => void held),
      );
      return { reloader, oldAsk: new WeakRef(loaded.generation.ask) };
    };
    const { reloader, oldAsk } = await start();
    cleanup.push(() => reloader.close());
    writeFileSync(join(contentDir, 'docs/kettle.md'), NEW_KETTLE);
    expect(await reloader.reload('test')).toMatchObject({ status: 'swapped' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(oldAsk.deref()).toBeUndefined();
  });
});
