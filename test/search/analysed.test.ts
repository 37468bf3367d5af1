import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import { loadSite } from '../../src/content/index.js';
import { passageDocument } from '../../src/nlweb/index.js';
import type { SearchDocument } from '../../src/search/index.js';
import {
  analyseDocuments,
  buildIndex,
  combineAnalysed,
  isAnalysedDocuments,
  search,
  selectAnalysed,
} from '../../src/search/index.js';

/** A shuffled copy, the same for the same seed (mulberry32). */
function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const sampleSite = fileURLToPath(new URL('../../content', import.meta.url));

/** The sample site's passages as /ask indexes them, and a few words the analyser treats apart. */
async function documents(): Promise<SearchDocument[]> {
  const { site } = await loadSite(sampleSite);
  const docs = site.pages.flatMap((page) => page.passages.map((passage) => passageDocument(page, passage)));
  docs.push(
    {
      key: 'z/compounds',
      fields: { title: 'E-mail', headings: 'ICH-M11 > U.S.A.', body: "3.14 node.js don't Søren's" },
    },
    { key: 'z/empty', fields: { title: '', headings: '', body: '' } },
    { key: 'z/link-list', fields: { title: 'See also', headings: '', body: 'e-mail email' }, boost: 0.25 },
  );
  return docs;
}

describe('analyseDocuments', () => {
  it('gives buildIndex the index it builds by itself, however the documents are split, ordered or left out', async () => {
    const docs = await documents();
    const reference = buildIndex(docs);
    for (let seed = 1; seed <= 6; seed += 1) {
      const shuffled = seededShuffle(docs, seed);
      // Three batches of uneven size; every third seed leaves some documents for buildIndex to analyse.
      const kept = seed % 3 === 0 ? shuffled.slice(0, -7) : shuffled;
      const cuts = [Math.floor(kept.length * 0.2), Math.floor(kept.length * 0.7)];
      const batches = [kept.slice(0, cuts[0]), kept.slice(cuts[0], cuts[1]), kept.slice(cuts[1])].map(
        analyseDocuments,
      );
      const index = buildIndex(seededShuffle(docs, seed + 100), { analysed: seededShuffle(batches, seed) });
      expect(isDeepStrictEqual(index, reference), `seed ${seed}`).toBe(true);
    }
  });

  it('analyses again a document whose key two batches hold, or whose fields changed since', async () => {
    const docs = await documents();
    const reference = buildIndex(docs);
    const [first, second] = [docs[0]!, docs[1]!];
    const impostor = { ...first, fields: { ...first.fields, body: `${first.fields.body} ICH-E6` } };
    const changed = { ...second, fields: { ...second.fields, body: 'Another text entirely' } };
    const analysed = [analyseDocuments(docs), analyseDocuments([impostor, changed])];
    expect(isDeepStrictEqual(buildIndex(docs, { analysed }), reference)).toBe(true);
    const edited = docs.map((doc) =>
      doc === second ? { ...doc, fields: { ...doc.fields, body: 'Edited' } } : doc,
    );
    expect(
      isDeepStrictEqual(buildIndex(edited, { analysed: [analyseDocuments(docs)] }), buildIndex(edited)),
    ).toBe(true);
  });

  it('combines batches into the one analysing their documents in that order gives', async () => {
    const docs = await documents();
    const cuts = [Math.floor(docs.length * 0.3), Math.floor(docs.length * 0.8)];
    const parts = [docs.slice(0, cuts[0]), docs.slice(cuts[0], cuts[1]), docs.slice(cuts[1])];
    const combined = combineAnalysed(parts.map(analyseDocuments));
    expect(isDeepStrictEqual(combined, analyseDocuments(docs))).toBe(true);
    expect(isDeepStrictEqual(buildIndex(docs, { analysed: [combined] }), buildIndex(docs))).toBe(true);
  });

  it('selects the documents asked for, keeping the batch’s word numbers', async () => {
    const docs = await documents();
    const kept = docs.filter((_, i) => i % 3 !== 1);
    const all = analyseDocuments(docs);
    const selected = selectAnalysed(all, new Set(kept.map((doc) => doc.key)));
    expect(selected.keys).toEqual(kept.map((doc) => doc.key));
    expect(selected.folded).toBe(all.folded);
    expect(isDeepStrictEqual(buildIndex(kept, { analysed: [selected] }), buildIndex(kept))).toBe(true);
    // Renumbered, it is what analysing those documents alone gives.
    expect(isDeepStrictEqual(combineAnalysed([selected]), analyseDocuments(kept))).toBe(true);
  });

  it('tells an analysis read back whole from one whose lists disagree', async () => {
    const batch = analyseDocuments(await documents());
    expect(isAnalysedDocuments(batch)).toBe(true);
    expect(isAnalysedDocuments(null)).toBe(false);
    expect(isAnalysedDocuments({ ...batch, terms: batch.terms.slice(1) })).toBe(false);
    expect(isAnalysedDocuments({ ...batch, starts: batch.starts.subarray(1) })).toBe(false);
    expect(isAnalysedDocuments({ ...batch, tokens: batch.tokens.subarray(1) })).toBe(false);
    expect(isAnalysedDocuments({ ...batch, starts: Array.from(batch.starts) })).toBe(false);
    const wrongWord = batch.tokens.slice();
    wrongWord[0] = batch.folded.length;
    expect(isAnalysedDocuments({ ...batch, tokens: wrongWord })).toBe(false);
  });

  it('leaves out of a combination a key that two batches hold', async () => {
    const docs = await documents();
    const [first, second] = [docs[0]!, docs[1]!];
    const combined = combineAnalysed([analyseDocuments([first, second]), analyseDocuments([first])]);
    expect(combined.keys).toEqual([second.key]);
    expect(isDeepStrictEqual(combined, analyseDocuments([second]))).toBe(true);
  });

  it('numbers words within its batch and marks joined compound forms', () => {
    const batch = analyseDocuments([
      { key: 'a', fields: { title: 'E-mail', headings: '', body: 'email e-mail' } },
    ]);
    expect(batch.keys).toEqual(['a']);
    // "e-mail" gives its part "mail" and the joined "email" (not a word of its own: ~n).
    expect(batch.folded).toEqual(['mail', 'email']);
    expect([...batch.tokens]).toEqual([0, ~1, 1, 0, ~1]);
    expect([...batch.starts]).toEqual([0, 2, 2, 5]);
    expect([...batch.lengths]).toEqual([6, 0, 12]);
  });

  it('finds the same results from an index built from batches', async () => {
    const docs = await documents();
    const index = buildIndex(docs, { analysed: [analyseDocuments(docs)] });
    expect(search(index, 'email').map((r) => r.key)).toEqual(
      search(buildIndex(docs), 'email').map((r) => r.key),
    );
    expect(search(index, 'email').map((r) => r.key)).toContain('z/compounds');
  });
});
