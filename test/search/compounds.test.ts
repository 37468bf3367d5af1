import { describe, expect, it } from 'vitest';
import { buildIndex, planQuery, search, searchWithPlan } from '../../src/search/index.js';
import { compoundLinking, splitCompound } from '../../src/search/compounds.js';

describe('splitCompound', () => {
  const german = compoundLinking('de') as readonly string[];
  const known = (...words: string[]) => {
    const set = new Set(words);
    return (part: string): boolean => set.has(part);
  };

  it('cuts a word into known parts across a linking letter', () => {
    expect(splitCompound('festplattennutzung', known('festplatte', 'nutzung'), german)).toEqual([
      'festplatte',
      'nutzung',
    ]);
    expect(splitCompound('arbeitsspeicher', known('arbeit', 'speicher'), german)).toEqual([
      'arbeit',
      'speicher',
    ]);
  });

  it('takes the longest first part that leads to a full split, into up to four parts', () => {
    expect(
      splitCompound('festplattennutzung', known('fest', 'platte', 'festplatte', 'nutzung'), german),
    ).toEqual(['festplatte', 'nutzung']);
    expect(
      splitCompound('datenbankverbindungsfehler', known('daten', 'bank', 'verbindung', 'fehler'), german),
    ).toEqual(['daten', 'bank', 'verbindung', 'fehler']);
    // "festplatten" leaves "utzung", which is no word: the shorter first part is taken instead.
    expect(splitCompound('festplattenutzung', known('festplatten', 'festplatte', 'nutzung'), german)).toEqual(
      ['festplatte', 'nutzung'],
    );
    expect(splitCompound('festplattenutzung', known('festplatten', 'nutzung'), german)).toBeNull();
  });

  it('never splits into parts under four letters, nor the word into itself', () => {
    expect(splitCompound('tagesuhr', known('tag', 'uhr', 'tages'), german)).toBeNull();
    expect(splitCompound('nutzungnutzung', known('nutzungnutzung'), german)).toBeNull();
    expect(splitCompound('nutzungnutzung', known('nutzung'), german)).toEqual(['nutzung', 'nutzung']);
  });

  it('allows only the linking letters of the language', () => {
    // Swedish joins with -a- ("gatubelysning" has -u-), German does not.
    const swedish = compoundLinking('sv') as readonly string[];
    expect(splitCompound('skolabok', known('skol', 'bok'), german)).toBeNull();
    expect(splitCompound('gatubelysning', known('gata', 'gat', 'belysning'), german)).toBeNull();
    expect(splitCompound('gatubelysning', known('gatu', 'belysning'), swedish)).toEqual([
      'gatu',
      'belysning',
    ]);
    expect(compoundLinking('fr')).toBeNull();
    expect(compoundLinking('en')).toBeNull();
  });
});

describe('compounds at query time', () => {
  const docs = (lang: string) => [
    {
      key: `${lang}/disk`,
      lang,
      fields: { title: 'Speicherplatz', headings: '', body: 'Die Nutzung der Festplatte anzeigen' },
    },
    {
      key: `${lang}/net`,
      lang,
      fields: { title: 'Netzwerk', headings: '', body: 'Die Verbindung zum Server prüfen' },
    },
  ];

  it('finds the page with both parts of a German compound, without a correction line', () => {
    const index = buildIndex(docs('de'));
    const outcome = searchWithPlan(index, 'Festplattennutzung', { lang: 'de' });
    expect(outcome.results.map((r) => r.key)).toEqual(['de/disk']);
    expect(outcome.corrections).toEqual([]);
    const plan = planQuery(index.core, 'Festplattennutzung', { lang: 'de' });
    expect(plan.words.map((w) => w.alternatives.map((a) => a.term))).toEqual([['festplatt'], ['nutzung']]);
  });

  it('takes the last part in another form of a word the site has', () => {
    const index = buildIndex(docs('de'));
    const plan = planQuery(index.core, 'Festplattennutzungen', { lang: 'de' });
    expect(plan.words.map((w) => w.alternatives.map((a) => a.term))).toEqual([['festplatt'], ['nutzung']]);
    // Only the last part: a first part must be a word of the site ("Festplatten" is, "Festplatte" not).
    const plural = buildIndex([
      {
        key: 'disk',
        lang: 'de',
        fields: { title: 'Platten', headings: '', body: 'Nutzung der Festplatten' },
      },
    ]);
    expect(planQuery(plural.core, 'Festplattenutzung', { lang: 'de' }).words).toEqual([]);
    expect(planQuery(plural.core, 'Festplattennutzung', { lang: 'de' }).words).toHaveLength(2);
  });

  it('splits Dutch and Norwegian compounds too', () => {
    const nl = buildIndex([
      { key: 'db', lang: 'nl', fields: { title: 'Gegevens', headings: '', body: 'een bank van gegevens' } },
    ]);
    expect(search(nl, 'gegevensbank', { lang: 'nl' }).map((r) => r.key)).toEqual(['db']);
    const nb = buildIndex([
      { key: 'mem', lang: 'nb', fields: { title: 'Minne', headings: '', body: 'arbeid med minne' } },
    ]);
    expect(planQuery(nb.core, 'arbeidsminne', { lang: 'no' }).words).toHaveLength(2);
  });

  it('does not split a word the site has whole', () => {
    const index = buildIndex([
      ...docs('de'),
      { key: 'de/usage', lang: 'de', fields: { title: 'Festplattennutzung', headings: '', body: '' } },
    ]);
    const plan = planQuery(index.core, 'Festplattennutzung', { lang: 'de' });
    expect(plan.words.map((w) => w.alternatives[0]?.term)).toEqual(['festplattennutz']);
    expect(search(index, 'Festplattennutzung', { lang: 'de' })[0]?.key).toBe('de/usage');
  });

  it('does not split in a language that does not compound, nor into words of another language', () => {
    const french = buildIndex(docs('fr'));
    expect(planQuery(french.core, 'Festplattennutzung', { lang: 'fr' }).words).toEqual([]);
    // German parts on English pages do not split a German query word.
    const english = buildIndex(docs('en'));
    expect(planQuery(english.core, 'Festplattennutzung', { lang: 'de' }).words).toEqual([]);
  });
});
