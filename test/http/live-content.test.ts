import type { Site } from '../../src/content/index.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ANALYSIS_SLICE_MS, LiveContent } from '../../src/http/index.js';
import type { AskService } from '../../src/nlweb/index.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('analysing the serving site’s snippet texts in the background', () => {
  /** An ask service whose analysis takes `slices` calls; LiveContent calls nothing else of it here. */
  const counting = (slices: number, fail = false) => {
    const calls = { count: 0 };
    const ask = {
      analyseSnippetTexts: (budgetMs: number) => {
        expect(budgetMs).toBe(ANALYSIS_SLICE_MS);
        calls.count += 1;
        if (fail) throw new Error('analysis failed');
        return calls.count >= slices;
      },
    } as unknown as AskService;
    return { generation: { site: { pages: [] } as unknown as Site, ask }, calls };
  };
  /** Lets `turns` turns of the event loop pass (each runs the immediates queued before it). */
  const turns = async (count: number) => {
    for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  /** Waits (up to 5 s) for `condition`, a turn at a time. */
  const until = async (condition: () => boolean) => {
    const deadline = Date.now() + 5000;
    while (!condition() && Date.now() < deadline) await turns(1);
    expect(condition()).toBe(true);
  };
  const noError = () => expect.fail('no error expected');
  /** Content serving `first`, analysing in the background with no delay, once its first slice has run. */
  const analysing = async (first: ReturnType<typeof counting>) => {
    const content = new LiveContent(first.generation);
    content.analyseInBackground(noError, 0);
    await until(() => first.calls.count >= 1);
    return content;
  };

  it('works slice by slice, one per turn of the event loop, until the service says it is done', async () => {
    const first = counting(5);
    const content = new LiveContent(first.generation);
    content.analyseInBackground(noError, 0);
    expect(first.calls.count).toBe(0);
    await until(() => first.calls.count >= 1);
    expect(first.calls.count).toBeLessThan(5);
    await until(() => first.calls.count === 5);
    await turns(5);
    expect(first.calls.count).toBe(5);
  });

  it('goes on while nothing else happens: an idle server finishes it before the next reload', async () => {
    const first = counting(200);
    const content = new LiveContent(first.generation);
    content.analyseInBackground(noError, 0);
    // One timer and nothing else: no other turn of the event loop would run a slice for it, so
    // this waits in real time without waking the loop (a poll would run the slices itself).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(first.calls.count).toBe(200);
    content.stopAnalysis();
  });

  it('starts only after its delay (start-up and a reload come first)', async () => {
    const first = counting(3);
    const content = new LiveContent(first.generation);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    content.analyseInBackground(noError, 200);
    vi.advanceTimersByTime(199);
    await turns(3);
    expect(first.calls.count).toBe(0);
    vi.advanceTimersByTime(1);
    await until(() => first.calls.count === 3);
  });

  it('moves to the site swapped in, and leaves the old one alone', async () => {
    const first = counting(1000);
    const second = counting(3);
    const content = await analysing(first);
    content.swap(second.generation);
    const firstCalls = first.calls.count;
    await until(() => second.calls.count === 3);
    await turns(5);
    expect(first.calls.count).toBe(firstCalls);
    expect(second.calls.count).toBe(3);
  });

  it('stops when asked to, and does not start on a swap afterwards', async () => {
    const first = counting(1000);
    const second = counting(1000);
    const content = await analysing(first);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    content.stopAnalysis();
    const calls = first.calls.count;
    content.swap(second.generation);
    vi.advanceTimersByTime(60_000);
    await turns(5);
    expect(first.calls.count).toBe(calls);
    expect(second.calls.count).toBe(0);
  });

  it('reports an error and stops, the site still serving', async () => {
    const failing = counting(1000, true);
    const content = new LiveContent(failing.generation);
    const errors: unknown[] = [];
    content.analyseInBackground((error) => errors.push(error), 0);
    await until(() => errors.length === 1);
    await turns(5);
    expect(failing.calls.count).toBe(1);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('analysis failed');
    expect(content.current).toBe(failing.generation);
  });
});
