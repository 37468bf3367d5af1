import { describe, expect, it } from 'vitest';

import type { SearchDocument } from '../../src/search/index.js';
import {
  allowedEdits,
  buildIndex,
  editDistance,
  planQuery,
  search,
  searchWithPlan,
} from '../../src/search/index.js';

function doc(key: string, body: string, title = '', headings = ''): SearchDocument {
  return { key, fields: { title, headings, body } };
}

const DOCS: SearchDocument[] = [
  doc('amend', 'How protocol amendments are imported and compared with the previous version.', 'Amendments'),
  doc('consent', 'The informed consent form explains the study to participants.', 'Informed consent'),
  doc('protocols', 'Protocols and protocol templates for every phase.', 'Protocol library'),
  doc('proteins', 'Protein assays are out of scope.', 'Laboratory'),
  doc('sign', 'Approvals use electronic-signatures that meet 21 CFR Part 11.', 'Compliance'),
  doc('ps', 'Get-ChildItem lists the items in a folder.', 'PowerShell'),
  doc('schedule', 'The schedule of activities lists every visit and procedure.', 'Schedule of activities'),
  doc('data', 'Data residency: choose where data is stored.', 'Data'),
  doc('database', 'The database is backed up nightly.', 'Database'),
  doc('rare', 'A single mention of consentt, spelt wrongly.', 'Typo page'),
];
const index = buildIndex(DOCS);

const keys = (query: string, options = {}) => search(index, query, options).map((r) => r.key);

describe('the last word as a prefix', () => {
  it('does not complete an acronym written in capitals among lower-case words', () => {
    // "DA" could start "data" or "database"; in capitals after lower-case words it is a name.
    const words = (query: string) =>
      planQuery(index.core, query).words.flatMap((w) => w.alternatives.map((a) => a.term));
    expect(words('residency of the DA')).not.toContain('data');
    expect(words('residency of the da')).toContain('data');
    // A query all in capitals may be typed with caps lock: it still completes.
    expect(words('DA')).toContain('data');
  });

  it('finds results from the second letter and keeps the page as letters are added', () => {
    for (const typed of ['pr', 'pro', 'prot', 'proto', 'protoc', 'protoco', 'protocol'])
      expect(keys(typed)[0], typed).toBe('protocols');
    expect(keys('schedul of activ')[0]).toBe('schedule');
  });

  it('scores a completion below an exact match', () => {
    // "data" is exact in one document and the beginning of "database" in another.
    const [first, second] = search(index, 'data');
    expect(first!.key).toBe('data');
    expect(second!.key).toBe('database');
    expect(second!.score).toBeLessThan(first!.score);
  });

  it('only for the last word, and not once the word is finished with punctuation or a space', () => {
    expect(keys('protoc', { prefix: false })).toEqual([]);
    expect(keys('protoc.')).toEqual([]);
    expect(keys('protoc amendments')).toEqual(['amend']);
  });

  it('bounds the expansion and lists at most the most common completions', () => {
    const many = buildIndex(
      Array.from({ length: 200 }, (_, i) => doc(`d${String(i).padStart(3, '0')}`, `prefix${i}word common`)),
    );
    const plan = planQuery(many.core, 'prefix');
    expect(plan.words).toHaveLength(1);
    expect(plan.words[0]!.alternatives.length).toBeLessThanOrEqual(30);
  });
});

describe('typo tolerance', () => {
  it('follows the search servers’ rule: none up to 4 letters, one edit from 5, two from 8', () => {
    expect([3, 4, 5, 7, 8, 12].map(allowedEdits)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(editDistance('amendmnet', 'amendment', 2)).toBe(1); // a swap is one edit (Damerau)
    expect(editDistance('consnt', 'consent', 1)).toBe(1);
    expect(editDistance('abcdef', 'badcfe', 2)).toBe(3);
  });

  it('matches misspelt words to the nearest vocabulary words and says what it searched for', () => {
    const outcome = searchWithPlan(index, 'protocl amendmnet');
    expect(outcome.results[0]!.key).toBe('amend');
    expect(outcome.corrections).toEqual([
      { from: 'protocl', to: 'protocol' },
      { from: 'amendmnet', to: 'amendments' },
    ]);
    expect(outcome.correctedText).toBe('protocol amendments');
    expect(searchWithPlan(index, 'informed consnt').results[0]!.key).toBe('consent');
  });

  it('does not correct short words, and scores a correction below an exact match', () => {
    expect(keys('dta', { prefix: false })).toEqual([]);
    // "consentt" is in one document as written: the exact match ranks first, and it is not corrected.
    const outcome = searchWithPlan(index, 'consentt', { prefix: false });
    expect(outcome.results[0]!.key).toBe('rare');
    expect(outcome.corrections).toEqual([]);
  });

  it('can be turned off', () => {
    expect(keys('informed consnt', { typos: false })).toEqual(['consent']);
    expect(searchWithPlan(index, 'consnt', { typos: false, prefix: false }).results).toEqual([]);
  });
});

describe('joined and split forms', () => {
  it('matches a word written together with its parts written apart and the reverse', () => {
    expect(keys('part11')).toEqual(['sign']);
    expect(keys('esignature')).toEqual(['sign']);
    expect(keys('getchilditem')).toEqual(['ps']);
    expect(keys('get child item')).toContain('ps');
    expect(searchWithPlan(index, 'part11').corrections).toEqual([{ from: 'part11', to: 'part 11' }]);
  });
});

describe('determinism', () => {
  it('gives the same results and corrections whatever order the documents come in', () => {
    const reversed = buildIndex([...DOCS].reverse());
    for (const q of ['pr', 'protocl amendmnet', 'part11', 'esignature', 'get child item', 'dat'])
      expect(JSON.stringify(searchWithPlan(reversed, q))).toBe(JSON.stringify(searchWithPlan(index, q)));
  });
});

describe('feedback and copies', () => {
  it('counts a text copied many times once when it picks feedback documents', () => {
    const copies = Array.from({ length: 12 }, (_, i) =>
      doc(`a${String(i).padStart(2, '0')}`, 'apple orchard harvest'),
    );
    const filler = Array.from({ length: 30 }, (_, i) =>
      doc(`f${String(i).padStart(2, '0')}`, `filler text ${i}`),
    );
    const docs = [...copies, doc('b', 'apple cider press'), doc('c', 'cider press maintenance'), ...filler];
    // No query counts as short (a short query's feedback finds no document of its own).
    const index = buildIndex(docs, { ranking: { feedback: { shortQueryWords: 0 } } });
    // "c" has no query word: only feedback from "b" (not drowned by the twelve copies) finds it.
    expect(search(index, 'apple.', { limit: 50 }).map((r) => r.key)).toContain('c');
    expect(index.core.docCopyOf[11]).toBe(0);
  });
});
