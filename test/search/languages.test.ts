import { describe, expect, it } from 'vitest';
import {
  analyze,
  analyzeQuery,
  buildIndex,
  planQuery,
  search,
  searchWithPlan,
} from '../../src/search/index.js';
import { languageProfile } from '../../src/search/languages.js';

describe('analysis per language', () => {
  it('cuts Chinese, Japanese and Korean runs into overlapping bigrams, Latin words inside them apart', () => {
    expect(analyze('压缩方法')).toEqual(['压缩', '缩方', '方法']);
    expect(analyze('使用fetch请求')).toEqual(['使用', 'fetch', '请求']);
    // Korean: each syllable too (a particle is written onto its noun).
    expect(analyze('함수를 호출')).toEqual(['함수', '수를', '함', '수', '를', '호출', '호', '출']);
    // A character alone is a term.
    expect(analyze('树')).toEqual(['树']);
    expect(analyze('関数の引数')).toContain('引数');
  });

  it('finds a one-syllable Korean noun under another particle', () => {
    const index = buildIndex([
      {
        key: 'value',
        lang: 'ko',
        fields: { title: '변수', headings: '', body: '값이 바뀌면 새 값을 저장합니다' },
      },
      { key: 'other', lang: 'ko', fields: { title: '함수', headings: '', body: '함수를 호출합니다' } },
    ]);
    // "값은" is in neither text; "값" alone is in the first.
    expect(search(index, '값은', { limit: 5 }).map((r) => r.key)).toEqual(['value']);
  });

  it('segments Thai into dictionary words', () => {
    expect(analyze('ภาษาไทยง่าย')).toEqual(['ภาษา', 'ไทย', 'ง่าย']);
  });

  it("stems with the language's Snowball stemmer, accents kept for it and folded after", () => {
    const fr = languageProfile('fr');
    expect(analyze('fonctions fléchées', fr)).toEqual(analyze('fonction fléchée', fr));
    expect(analyze("l'objet", fr)).toEqual(['objet']);
    const de = languageProfile('de-AT');
    expect(analyze('Erstelle ein Archiv', de)).toEqual(analyze('Archive erstellen', de).reverse());
    const ru = languageProfile('ru');
    expect(analyze('замыкания', ru)).toEqual(analyze('замыкание', ru));
    expect(analyze('funciones', languageProfile('es'))).toEqual(analyze('función', languageProfile('es')));
  });

  it("drops the language's own stop words and, in queries, its question words", () => {
    expect(analyze('le la les de', languageProfile('fr'))).toEqual([]);
    expect(analyze('the of and')).toEqual([]);
    // English stop words are words in another language's text ("die" in German is a stop word).
    expect(analyze('die', languageProfile('de'))).toEqual([]);
    expect(analyze('die')).toEqual(['die']);
    expect(analyzeQuery('comment créer un objet', true, languageProfile('fr')).map((q) => q.term)).toEqual([
      'cre',
      'objet',
    ]);
  });

  it('keeps English exactly as before for English, unknown and stemmer-less languages', () => {
    const text = "Don't e-mail the ICH-M11 running-shoes U.S.A. 3.14";
    expect(analyze(text, languageProfile('en-GB'))).toEqual(analyze(text));
    expect(analyze(text, languageProfile('ja'))).toEqual(analyze(text));
    expect(analyze(text, languageProfile('xx'))).toEqual(analyze(text));
  });
});

describe('searching in a language', () => {
  const index = buildIndex([
    {
      key: 'de/archiv',
      lang: 'de',
      fields: { title: 'Archive', headings: '', body: 'Erstelle ein Archiv und entdecke die Dateien' },
    },
    {
      key: 'de/packen',
      lang: 'de',
      fields: { title: 'Packen', headings: '', body: 'Dateien komprimieren und entpacken' },
    },
    {
      key: 'en/discover',
      fields: { title: 'Discover', headings: '', body: 'discovering the entdecker tool' },
    },
    {
      key: 'zh/tar',
      lang: 'zh',
      fields: { title: 'tar', headings: '', body: '这是一种常用的压缩方法，用于目录中的文件列表' },
    },
  ]);

  it('finds a phrase inside a Chinese sentence', () => {
    expect(search(index, '压缩方法').map((r) => r.key)).toEqual(['zh/tar']);
    expect(search(index, '目录中的文件列表')[0]?.key).toBe('zh/tar');
  });

  it('matches German inflections through the German stemmer', () => {
    expect(search(index, 'Archiv erstellen', { lang: 'de' })[0]?.key).toBe('de/archiv');
  });

  it('corrects a misspelt word only to a word of the same language', () => {
    const de = searchWithPlan(index, 'Datein entpacken', { lang: 'de' });
    expect(de.corrections).toEqual([{ from: 'Datein', to: 'dateien' }]);
    // "entdecker" is an English-page word: a German query is not corrected to it.
    const other = searchWithPlan(index, 'entdeckar', { lang: 'de' });
    expect(other.corrections.map((c) => c.to)).not.toContain('entdecker');
    expect(searchWithPlan(index, 'entdeckar').corrections.map((c) => c.to)).toEqual(['entdecker']);
  });

  it("weighs a Chinese query's bigrams by Intl.Segmenter's words and drops its question words", () => {
    const weights = (text: string): [string, number][] =>
      planQuery(index.core, text).words.map((w) => [w.alternatives[0]?.term as string, w.weight]);
    // 有|什么|作用: the bigrams touching 什么 go; 压缩 and 方法 are words, 缩方 spans two.
    expect(weights('压缩方法有什么作用')).toEqual([
      ['压缩', 1],
      ['缩方', 0.5],
      ['方法', 1],
    ]);
    expect(search(index, '如何压缩文件')[0]?.key).toBe('zh/tar');
    // A question of question words only still searches for them.
    expect(planQuery(index.core, '什么').unmatched).toEqual([1]);
    expect(planQuery(index.core, 'the 什么').unmatched).toEqual([1]);
    // Japanese (kana in the query) is weighed as before.
    const japanese = buildIndex([
      { key: 'ja', lang: 'ja', fields: { title: '関数', headings: '', body: '関数の引数' } },
    ]);
    expect(planQuery(japanese.core, '関数の引数').words.map((w) => w.weight)).toEqual([1, 1, 1, 1]);
  });

  it('never corrects Chinese by edit distance', () => {
    expect(searchWithPlan(index, '压缩方去').corrections).toEqual([]);
  });

  it('builds the same index whatever order the documents come in', () => {
    const docs = [
      { key: 'b', lang: 'fr', fields: { title: 'Fonctions', headings: '', body: 'les fonctions fléchées' } },
      { key: 'a', lang: 'ja', fields: { title: '関数', headings: '', body: 'アロー関数の書き方' } },
    ];
    const one = buildIndex(docs);
    const two = buildIndex([...docs].reverse());
    expect(two.core.terms).toEqual(one.core.terms);
    expect([...two.core.vocabulary.langs]).toEqual([...one.core.vocabulary.langs]);
    expect(search(two, 'アロー関数')).toEqual(search(one, 'アロー関数'));
  });
});
