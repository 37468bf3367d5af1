import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readContent } from '../../../src/content/index.js';
import { loadContent, type LoadedContent } from '../../../src/runtime/content-load.js';
import {
  ANALYSIS_FILE,
  CONTENT_SNAPSHOT_VERSION,
  contentAnalysisKey,
  contentSnapshotKey,
  SNAPSHOT_FILE,
  type ContentSnapshot,
} from '../../../src/runtime/content-snapshot.js';
import { GenerationWorker } from '../../../src/runtime/generation-worker.js';
import { buildPassageIndex } from '../../../src/nlweb/index.js';
import { SEARCH_ENGINE_VERSION } from '../../../src/search/index.js';
import { readSnapshot, writeSnapshot } from '../../../src/snapshot/index.js';
import { readKnownStamps, STAMPS_FILE } from '../../../src/runtime/content-stamps.js';
import { contentFolder } from '../../support/files.js';

const folders: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const PAGES = {
  'index.md': '---\ntitle: Home\n---\n\nWelcome to the example site about solar kettles.\n',
  'docs/kettle.md':
    '# Solar kettle\n\nBoils water with sunlight.\n\n## Cleaning\n\nRinse the mirror with vinegar.\n\n## Safety\n\nNever look into the focus.\n',
  'docs/mirror.md': '# Mirror care\n\nPolish the mirror monthly; vinegar removes limescale.\n',
  // Two versions of one page: the ask service groups them as copies (kept in the snapshot too).
  'v1/setup.md': '# Kettle setup\n\nFace the dish south and fill the kettle with water.\n',
  'v2/setup.md': '# Kettle setup\n\nFace the dish south and fill the kettle with cold water.\n',
};

interface Logged {
  level: number;
  msg: string;
  reason?: string;
}

function setupFolders(readBesideSnapshotFrom?: number) {
  const contentDir = contentFolder(PAGES);
  const dataDir = mkdtempSync(join(tmpdir(), 'frontdoor-data-'));
  folders.push(contentDir, dataDir);
  const records: Logged[] = [];
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => records.push(JSON.parse(line) as Logged) },
  );
  const config = { contentDir, dataDir, publicBaseUrl: 'https://www.example.test' };
  const load = async (
    options: {
      buildInWorker?: boolean;
      previous?: LoadedContent['build'];
      worker?: GenerationWorker;
      stampSettleMs?: number;
    } = {},
  ): Promise<LoadedContent> => {
    const loaded = (await loadContent(config, logger, { readBesideSnapshotFrom, ...options }))!;
    await loaded.saveSnapshot();
    return loaded;
  };
  return { contentDir, dataDir, records, load, snapshotFile: join(dataDir, SNAPSHOT_FILE) };
}

const QUERIES = ['vinegar', 'solar kettle safety', 'mirror', 'the'];
const passageCount = (loaded: LoadedContent) =>
  loaded.generation.site.pages.reduce((sum, page) => sum + page.passages.length, 0);
/** Everything an answer depends on, for comparing two loads. */
function answers(loaded: LoadedContent): string[] {
  return QUERIES.map((text) =>
    JSON.stringify(loaded.generation.ask.answer({ text, maxResults: 10, conversationId: null }, 'r')),
  );
}

// A first load with a large snapshot reads the folder in a worker while it reads the snapshot
// (start-up-read.ts); these snapshots are small, so that path is forced with a bound of 0 bytes.
describe.each([
  { reading: 'the folder first', from: undefined },
  { reading: 'the folder in a worker beside the snapshot', from: 0 },
])('content snapshot in DATA_DIR, reading $reading', ({ from }) => {
  const setup = () => setupFolders(from);

  it('builds in a worker a folder whose _site.yaml cannot be used, reporting it (a symbol does not cross threads)', async () => {
    const { load, contentDir } = setup();
    writeFileSync(
      join(contentDir, '_site.yaml'),
      Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x3a, 0x20, 0xff, 0xfe]),
    );
    const first = await load({ buildInWorker: true });
    expect(first.source).toBe('built');
    expect(first.problems).toContainEqual(
      expect.objectContaining({
        file: '_site.yaml',
        severity: 'error',
        message: expect.stringContaining('UTF-8'),
      }),
    );
    expect(first.generation.site.pages.length).toBeGreaterThan(0);
    const second = await load({ buildInWorker: true });
    expect(second.source).toBe('snapshot');
    expect(second.problems).toEqual(first.problems);
  });

  it('is written by a load that built the site, and reused by the next load of the same content', async () => {
    const { load, records, snapshotFile } = setup();
    const first = await load();
    expect(first.source).toBe('built');
    // The copies are found once, when the site is built, and kept with the index.
    const stored = await readSnapshot<ContentSnapshot>(snapshotFile, contentSnapshotKey(first.contentHash));
    expect(stored.ok && stored.value.copies).toEqual(first.generation.ask.copies);
    expect(records.some((r) => r.msg === 'content snapshot saved')).toBe(true);

    const second = await load();
    expect(second.source).toBe('snapshot');
    expect(second.contentHash).toBe(first.contentHash);
    expect(second.generation.site).toEqual(first.generation.site);
    expect(second.problems).toEqual(first.problems);
    expect(answers(second)).toEqual(answers(first));
    expect(second.generation.ask.index).toEqual(first.generation.ask.index);
    expect(first.generation.ask.copies.groups.get('/v1/setup')).toEqual(['/v2/setup', '/v1/setup']);
    expect(second.generation.ask.copies).toEqual(first.generation.ask.copies);
  });

  it('is not used once the content changed, and is replaced by the rebuilt one', async () => {
    const { load, contentDir, records } = setup();
    const first = await load();
    writeFileSync(join(contentDir, 'docs/mirror.md'), '# Mirror care\n\nPolish with a soft cloth.\n');
    const second = await load();
    expect(second.source).toBe('built');
    expect(second.contentHash).not.toBe(first.contentHash);
    expect(second.snapshotRejected).toMatch(/^contentHash was "[0-9a-f]{64}", now "[0-9a-f]{64}"$/);
    // The normal path after an edit: info, in words, not a warning.
    expect(records.find((r) => r.reason === 'stale')).toMatchObject({
      level: 30,
      msg: 'content changed since the last start: building the site and its search index afresh',
      detail: expect.stringMatching(/^contentHash was "[0-9a-f]{64}", now "[0-9a-f]{64}"$/),
    });
    expect(answers(second)).not.toEqual(answers(first));
    expect((await load()).source).toBe('snapshot');
  });

  it('keeps the files’ stamps beside it: a restart reads no file, and after a change reads every file again only to build', async () => {
    const { load, contentDir, dataDir, snapshotFile } = setup();
    // No settle time: the files just written are stamped at once.
    const first = await load({ stampSettleMs: 0 });
    expect(first.source).toBe('built');
    const kept = await readKnownStamps(dataDir, contentDir);
    expect(kept?.contentHash).toBe(first.contentHash);
    expect([...kept!.files.keys()]).toEqual(first.build.files.map((file) => file.sourcePath));

    const restarted = await load({ stampSettleMs: 0 });
    expect(restarted).toMatchObject({ source: 'snapshot', filesRead: 0, contentHash: first.contentHash });
    expect(restarted.build.files).toEqual(first.build.files);

    writeFileSync(join(contentDir, 'docs/mirror.md'), '# Mirror care\n\nPolish with a soft cloth.\n');
    const changed = await load({ stampSettleMs: 0 });
    expect(changed.source).toBe('built');
    expect(changed.contentHash).toBe((await readContent(contentDir)).hash);
    expect((await readKnownStamps(dataDir, contentDir))?.contentHash).toBe(changed.contentHash);
    // The same as a build that had nothing kept.
    rmSync(snapshotFile);
    rmSync(join(dataDir, STAMPS_FILE));
    const fromScratch = await load({ stampSettleMs: 0 });
    expect(fromScratch.source).toBe('built');
    expect(changed.generation.site).toEqual(fromScratch.generation.site);
    expect(answers(changed)).toEqual(answers(fromScratch));
  });

  it('is not used when another search engine version made it', async () => {
    const { load, snapshotFile } = setup();
    const first = await load();
    const stored = await readSnapshot(snapshotFile, contentSnapshotKey(first.contentHash));
    expect(stored.ok).toBe(true);
    if (!stored.ok) return;
    const otherEngine = {
      ...contentSnapshotKey(first.contentHash),
      searchEngineVersion: SEARCH_ENGINE_VERSION + 1,
    };
    await writeSnapshot(snapshotFile, otherEngine, stored.value);

    const second = await load();
    expect(second.source).toBe('built');
    expect(second.snapshotRejected).toBe(
      `searchEngineVersion was ${SEARCH_ENGINE_VERSION + 1}, now ${SEARCH_ENGINE_VERSION}`,
    );
    expect(answers(second)).toEqual(answers(first));
    expect((await load()).source).toBe('snapshot');
  });

  it('is not used when an older server wrote it without the fields this one keeps (the copies)', async () => {
    const { load, snapshotFile } = setup();
    const first = await load();
    const stored = await readSnapshot<ContentSnapshot>(snapshotFile, contentSnapshotKey(first.contentHash));
    if (!stored.ok) throw new Error(stored.detail);
    const { contentSnapshotVersion: _, ...olderKey } = contentSnapshotKey(first.contentHash);
    const { copies: __, ...olderPayload } = stored.value;
    await writeSnapshot(snapshotFile, olderKey, olderPayload);

    const second = await load();
    expect(second.source).toBe('built');
    expect(second.snapshotRejected).toBe(`contentSnapshotVersion was null, now ${CONTENT_SNAPSHOT_VERSION}`);
    expect(answers(second)).toEqual(answers(first));
  });

  it('is not used when truncated or damaged: the site is rebuilt, never served from it', async () => {
    const { load, snapshotFile, records } = setup();
    const first = await load();
    const size = readFileSync(snapshotFile).length;

    truncateSync(snapshotFile, Math.floor(size / 2));
    const afterTruncation = await load();
    expect(afterTruncation.source).toBe('built');
    expect(afterTruncation.snapshotRejected).toMatch(/truncated/);
    expect(answers(afterTruncation)).toEqual(answers(first));
    expect(records.some((r) => r.level === 40 && r.reason === 'corrupt')).toBe(true);

    const bytes = readFileSync(snapshotFile);
    bytes[bytes.length - 10]! ^= 0x01;
    writeFileSync(snapshotFile, bytes);
    const afterDamage = await load();
    expect(afterDamage.source).toBe('built');
    expect(afterDamage.snapshotRejected).toBe('the payload checksum does not match');
    expect((await load()).source).toBe('snapshot');
  });

  it('is the same when a worker thread builds the site and writes the snapshot', async () => {
    const here = await setupFolders().load({ buildInWorker: false });
    const { load, records } = setup();
    const inWorker = await load({ buildInWorker: true });
    expect(inWorker.source).toBe('built');
    expect(inWorker.generation.site).toEqual(here.generation.site);
    expect(inWorker.problems).toEqual(here.problems);
    expect(inWorker.generation.ask.index).toEqual(here.generation.ask.index);
    expect(inWorker.generation.ask.copies).toEqual(here.generation.ask.copies);
    expect(answers(inWorker)).toEqual(answers(here));
    expect(records.some((r) => r.msg === 'content snapshot saved')).toBe(true);
    const reused = await load({ buildInWorker: true });
    expect(reused.source).toBe('snapshot');
    expect(answers(reused)).toEqual(answers(here));
  });

  it('after a change, reads and parses only the changed file, indexes in a worker and equals a full build', async () => {
    const { load, contentDir, records } = setup();
    // The files are written now; with this thread's clock a minute on, their stamps are trusted
    // (afterEach puts the clock back).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 60_000);
    const first = await load({ buildInWorker: true });
    writeFileSync(
      join(contentDir, 'docs/mirror.md'),
      '# Mirror care\n\nPolish with a soft cloth and vinegar.\n',
    );
    const rebuilt = await load({ buildInWorker: true, previous: first.build });
    expect(rebuilt.source).toBe('built');
    // Only the changed file was read (the others' stamps are unchanged) and parsed; this worker
    // was not given the kept analysis, so it analysed every passage.
    expect([rebuilt.filesRead, rebuilt.filesParsed]).toEqual([1, 1]);
    expect(rebuilt.passagesAnalysed).toBe(passageCount(rebuilt));
    // The unchanged pages are the ones already serving, not copies.
    expect(rebuilt.generation.site.byUrl.get('/docs/kettle')).toBe(
      first.generation.site.byUrl.get('/docs/kettle'),
    );

    const full = setup();
    writeFileSync(
      join(full.contentDir, 'docs/mirror.md'),
      '# Mirror care\n\nPolish with a soft cloth and vinegar.\n',
    );
    const fullBuild = await full.load({ buildInWorker: false });
    expect(rebuilt.generation.site).toEqual(fullBuild.generation.site);
    expect(rebuilt.problems).toEqual(fullBuild.problems);
    expect(rebuilt.generation.ask.index).toEqual(fullBuild.generation.ask.index);
    expect(rebuilt.generation.ask.copies).toEqual(fullBuild.generation.ask.copies);
    expect(answers(rebuilt)).toEqual(answers(fullBuild));

    // The worker wrote the snapshot of the rebuilt site: the next start uses it, with the page
    // fields the worker indexed without put back, in their place.
    expect(records.filter((r) => r.msg === 'content snapshot saved')).toHaveLength(2);
    const restarted = await load();
    expect(restarted.source).toBe('snapshot');
    expect(JSON.stringify(restarted.generation.site.pages)).toBe(
      JSON.stringify(fullBuild.generation.site.pages),
    );
    expect(answers(restarted)).toEqual(answers(fullBuild));
    // … and its reload reuses pages too (the snapshot keeps how each file was built).
    writeFileSync(join(contentDir, 'index.md'), '---\ntitle: Home\n---\n\nWelcome, kettle fans.\n');
    const again = await load({ previous: restarted.build });
    expect(again.filesParsed).toBe(1);
    expect(again.generation.site.byUrl.get('/docs/mirror')).toBe(
      restarted.generation.site.byUrl.get('/docs/mirror'),
    );
  });

  it('uses a worker started ahead (warmed up on words) for a reload, and ends one it does not need', async () => {
    // The same length as before: only the flag of a page parsed anew keeps its old analysis out.
    const changed = '# Mirror care\n\nPolish the mirror nightly; vinegar removes limescale.\n';
    const { load, contentDir, dataDir } = setup();
    const first = await load({ buildInWorker: true });
    const unused = new GenerationWorker({ warmUpWords: ['mirror'] });
    const config = { contentDir, dataDir: setup().dataDir, publicBaseUrl: 'https://www.example.test' };
    const silent = pino({ level: 'silent' });
    // Nothing changed: the worker started for the reload is not used.
    expect(await loadContent(config, silent, { unlessHash: first.contentHash, worker: unused })).toBeNull();
    await expect(unused.next('indexed')).rejects.toThrow(/ended/);

    writeFileSync(join(contentDir, 'docs/mirror.md'), changed);
    // Given the analysis the first build kept, it analyses only the changed page's passages.
    const ahead = new GenerationWorker({
      warmUpWords: ['mirror', 'polish', 'vinegar', 'kettles'],
      previousAnalysis: { file: join(dataDir, ANALYSIS_FILE), key: contentAnalysisKey(first.contentHash) },
    });
    const rebuilt = await load({ buildInWorker: true, previous: first.build, worker: ahead });
    expect(rebuilt.filesParsed).toBe(1);
    expect(rebuilt.passagesAnalysed).toBe(rebuilt.generation.site.byUrl.get('/docs/mirror')!.passages.length);
    expect(rebuilt.passagesAnalysed).toBeLessThan(passageCount(rebuilt));
    // Done with (the snapshot written), it is ended.
    await expect(ahead.next('indexed')).rejects.toThrow(/ended/);

    const full = setup();
    writeFileSync(join(full.contentDir, 'docs/mirror.md'), changed);
    const fullBuild = await full.load({ buildInWorker: false });
    expect(rebuilt.generation.ask.index).toEqual(fullBuild.generation.ask.index);
    expect(rebuilt.generation.ask.copies).toEqual(fullBuild.generation.ask.copies);
    expect(answers(rebuilt)).toEqual(answers(fullBuild));

    // The analysis kept is the rebuilt site's now (made of the two batches): the next reload takes
    // it in turn; one made for another build, or damaged, is not used.
    const analysisFile = join(dataDir, ANALYSIS_FILE);
    const reloadWith = async (analysisOf: string, text: string, previous: LoadedContent) => {
      writeFileSync(join(contentDir, 'docs/kettle.md'), text);
      const worker = new GenerationWorker({
        previousAnalysis: { file: analysisFile, key: contentAnalysisKey(analysisOf) },
      });
      const loaded = await load({ buildInWorker: true, previous: previous.build, worker });
      expect(loaded.generation.ask.index).toEqual(buildPassageIndex(loaded.generation.site.pages));
      return loaded;
    };
    const next = await reloadWith(rebuilt.contentHash, '# Solar kettle\n\nBoils water, slowly.\n', rebuilt);
    expect(next.passagesAnalysed).toBe(next.generation.site.byUrl.get('/docs/kettle')!.passages.length);
    const stale = await reloadWith(rebuilt.contentHash, '# Solar kettle\n\nBoils water, quickly.\n', next);
    expect(stale.passagesAnalysed).toBe(passageCount(stale));
    truncateSync(analysisFile, readFileSync(analysisFile).length - 3);
    const damaged = await reloadWith(stale.contentHash, '# Solar kettle\n\nBoils water.\n', stale);
    expect(damaged.passagesAnalysed).toBe(passageCount(damaged));
  });
});

describe('stamps after a start from the snapshot', () => {
  it('takes the stamps just read: files too fresh to stamp when the snapshot was written are not read again', async () => {
    const { load, contentDir } = setupFolders();
    // Written just now, the files get no stamp: nor do their builds in the snapshot.
    const first = await load();
    expect(first.build.files.some((file) => file.stamp !== undefined)).toBe(false);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 60_000);
    // A minute on, the restart reads the folder, matches the snapshot and keeps those stamps.
    const restarted = await load();
    expect(restarted.source).toBe('snapshot');
    expect(restarted.build.files.every((file) => typeof file.stamp === 'string')).toBe(true);
    vi.setSystemTime(Date.now() + 60_000);
    writeFileSync(join(contentDir, 'docs/mirror.md'), '# Mirror care\n\nPolish it with a dry cloth.\n');
    const again = await load({ previous: restarted.build });
    expect([again.filesRead, again.filesParsed]).toEqual([1, 1]);
  });
});
