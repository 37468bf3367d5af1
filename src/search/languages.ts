/**
 * What the analyzer does differently per language: the stemmer, the stop words, the words that
 * frame a question, how a word is folded and whether French-style elisions ("l'objet") are cut.
 *
 * English (and any language without a Snowball stemmer, and text whose language is unknown) keeps
 * the analyzer's original behaviour exactly: Porter2 on ASCII words, Lucene's 33 stop words. Other
 * languages take their Snowball stemmer from @orama/stemmers (measured against snowball-stemmers
 * on the javascript.info translations: the same stems for French and Spanish, the current Snowball
 * Russian (ё handled), 2–4× faster) and their stop words from @orama/stopwords (Snowball's lists),
 * but Spanish from `stopword`: Orama's Spanish list (577 words) drops "valor", "tiempo", "usar".
 * Chinese, Japanese, Korean and Thai text is cut by script in cjk.ts, whatever the language.
 */

import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as armenian } from '@orama/stemmers/armenian';
import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as greek } from '@orama/stemmers/greek';
import { stemmer as hungarian } from '@orama/stemmers/hungarian';
import { stemmer as indonesian } from '@orama/stemmers/indonesian';
import { stemmer as irish } from '@orama/stemmers/irish';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as lithuanian } from '@orama/stemmers/lithuanian';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as romanian } from '@orama/stemmers/romanian';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as serbian } from '@orama/stemmers/serbian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as turkish } from '@orama/stemmers/turkish';
import { stemmer as ukrainian } from '@orama/stemmers/ukrainian';
import { stopwords as arabicStop } from '@orama/stopwords/arabic';
import { stopwords as armenianStop } from '@orama/stopwords/armenian';
import { stopwords as danishStop } from '@orama/stopwords/danish';
import { stopwords as dutchStop } from '@orama/stopwords/dutch';
import { stopwords as finnishStop } from '@orama/stopwords/finnish';
import { stopwords as frenchStop } from '@orama/stopwords/french';
import { stopwords as germanStop } from '@orama/stopwords/german';
import { stopwords as greekStop } from '@orama/stopwords/greek';
import { stopwords as hungarianStop } from '@orama/stopwords/hungarian';
import { stopwords as indonesianStop } from '@orama/stopwords/indonesian';
import { stopwords as irishStop } from '@orama/stopwords/irish';
import { stopwords as italianStop } from '@orama/stopwords/italian';
import { stopwords as lithuanianStop } from '@orama/stopwords/lithuanian';
import { stopwords as norwegianStop } from '@orama/stopwords/norwegian';
import { stopwords as portugueseStop } from '@orama/stopwords/portuguese';
import { stopwords as romanianStop } from '@orama/stopwords/romanian';
import { stopwords as russianStop } from '@orama/stopwords/russian';
import { stopwords as serbianStop } from '@orama/stopwords/serbian';
import { stopwords as swedishStop } from '@orama/stopwords/swedish';
import { stopwords as turkishStop } from '@orama/stopwords/turkish';
import { stopwords as ukrainianStop } from '@orama/stopwords/ukrainian';
import { spa as spanishStop } from 'stopword';
import { QUESTION_WORDS as QUESTION_WORDS_EN, STOP_WORDS, stemWord } from './english.js';

/** How the words of one language are analysed. */
export interface LanguageProfile {
  /** Small number naming the profile (0 = English); the index keeps one word table per profile. */
  readonly id: number;
  /** Primary subtag, "en" for the English default. */
  readonly code: string;
  /** Stop words, matched on the folded word. */
  readonly stop: ReadonlySet<string>;
  /** Words that frame a question ("how", "comment", "как"): dropped from queries with other words. */
  readonly question: ReadonlySet<string>;
  /** True for a Snowball language: words keep their accents until stemmed (the stemmers need them). */
  readonly snowball: boolean;
  /** Folded word → index term. */
  stem(folded: string): string;
  /** "l'objet" → "objet": the article before an apostrophe is cut (French, Italian, Catalan). */
  readonly elision: ReadonlySet<string> | null;
}

type Stemmer = (word: string) => string;

const FRENCH_ELISION = new Set([
  'l',
  'd',
  'j',
  'm',
  'n',
  's',
  't',
  'c',
  'qu',
  'jusqu',
  'lorsqu',
  'puisqu',
  'quoiqu',
]);
const ITALIAN_ELISION = new Set(['l', 'd', 'un', 'dell', 'all', 'dall', 'nell', 'sull', 'quest', 'quell']);

/** Question words per language (folded, lowercase): a handful of interrogatives and "can/how to" verbs. */
const QUESTION_WORDS: Record<string, readonly string[]> = {
  fr: [
    'comment',
    'pourquoi',
    'quoi',
    'quel',
    'quelle',
    'quels',
    'quelles',
    'quand',
    'où',
    'est',
    'ce',
    'peut',
    'peux',
    'faire',
    'faut',
  ],
  es: [
    'cómo',
    'como',
    'qué',
    'que',
    'cuál',
    'cual',
    'cuándo',
    'dónde',
    'por',
    'puedo',
    'puede',
    'hacer',
    'hace',
  ],
  ru: [
    'как',
    'что',
    'зачем',
    'почему',
    'какой',
    'какая',
    'какие',
    'где',
    'когда',
    'можно',
    'ли',
    'сделать',
    'нужно',
  ],
  de: ['wie', 'was', 'warum', 'wann', 'wo', 'welche', 'welcher', 'welches', 'kann', 'ich', 'man'],
  it: ['come', 'cosa', 'perché', 'quale', 'quando', 'dove', 'posso', 'fare'],
  pt: ['como', 'que', 'qual', 'quando', 'onde', 'porque', 'posso', 'fazer'],
  nl: ['hoe', 'wat', 'waarom', 'wanneer', 'waar', 'welke', 'kan', 'ik'],
};

interface Snowball {
  stem: Stemmer;
  stop: readonly string[];
  elision?: ReadonlySet<string>;
}

/** Languages with a Snowball stemmer, by primary subtag. */
const SNOWBALL: Record<string, Snowball> = {
  ar: { stem: arabic, stop: arabicStop },
  hy: { stem: armenian, stop: armenianStop },
  da: { stem: danish, stop: danishStop },
  nl: { stem: dutch, stop: dutchStop },
  fi: { stem: finnish, stop: finnishStop },
  fr: { stem: french, stop: frenchStop, elision: FRENCH_ELISION },
  de: { stem: german, stop: germanStop },
  el: { stem: greek, stop: greekStop },
  hu: { stem: hungarian, stop: hungarianStop },
  id: { stem: indonesian, stop: indonesianStop },
  ga: { stem: irish, stop: irishStop },
  it: { stem: italian, stop: italianStop, elision: ITALIAN_ELISION },
  lt: { stem: lithuanian, stop: lithuanianStop },
  nb: { stem: norwegian, stop: norwegianStop },
  nn: { stem: norwegian, stop: norwegianStop },
  no: { stem: norwegian, stop: norwegianStop },
  pt: { stem: portuguese, stop: portugueseStop },
  ro: { stem: romanian, stop: romanianStop },
  ru: { stem: russian, stop: russianStop },
  sr: { stem: serbian, stop: serbianStop },
  es: { stem: spanish, stop: spanishStop },
  sv: { stem: swedish, stop: swedishStop },
  tr: { stem: turkish, stop: turkishStop },
  uk: { stem: ukrainian, stop: ukrainianStop },
};

/** The languages the analyzer stems (besides English), by primary subtag, sorted. */
export const STEMMED_LANGUAGES: readonly string[] = Object.keys(SNOWBALL).sort();

/** English, and every language without a stemmer here: the analyzer's original behaviour. */
export const ENGLISH: LanguageProfile = {
  id: 0,
  code: 'en',
  stop: STOP_WORDS,
  question: QUESTION_WORDS_EN,
  snowball: false,
  stem: stemWord,
  elision: null,
};

function snowballProfile(id: number, code: string, snowball: Snowball): LanguageProfile {
  const cache = new Map<string, string>();
  return {
    id,
    code,
    stop: new Set(snowball.stop),
    question: new Set(QUESTION_WORDS[code] ?? []),
    snowball: true,
    elision: snowball.elision ?? null,
    stem(folded) {
      let term = cache.get(folded);
      if (term === undefined) {
        // A stemmer that throws on some word (Orama's Bulgarian one writes into its string, and
        // is left out for it) must not stop an index build: the word is kept as it is.
        try {
          term = snowball.stem(folded);
        } catch {
          term = folded;
        }
        if (cache.size >= 100_000) cache.clear();
        cache.set(folded, term);
      }
      return term;
    },
  };
}

// Numbered in subtag order, so a profile's id is the same in every process; the three Norwegian
// tags share one profile.
const PROFILES: LanguageProfile[] = [ENGLISH];
const BY_CODE = new Map<string, LanguageProfile>([['en', ENGLISH]]);
for (const code of STEMMED_LANGUAGES) {
  const snowball = SNOWBALL[code] as Snowball;
  const same = PROFILES.find((p) => p.snowball && SNOWBALL[p.code]?.stem === snowball.stem);
  const profile = same ?? snowballProfile(PROFILES.length, code, snowball);
  if (!same) PROFILES.push(profile);
  BY_CODE.set(code, profile);
}

/** The profile for a BCP 47 tag (its primary subtag): a Snowball language's, else English's. */
export function languageProfile(tag: string | undefined | null): LanguageProfile {
  if (!tag) return ENGLISH;
  const dash = tag.indexOf('-');
  return BY_CODE.get((dash < 0 ? tag : tag.slice(0, dash)).toLowerCase()) ?? ENGLISH;
}

/** The profile numbered `id` (LanguageProfile.id < 32: a vocabulary word keeps them as bits). */
export function profileById(id: number): LanguageProfile {
  return PROFILES[id] as LanguageProfile;
}
