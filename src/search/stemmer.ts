/**
 * The Snowball English ("Porter2") stemmer, written from the published algorithm
 * (https://snowballstem.org/algorithms/english/stemmer.html).
 *
 * Input: a lowercase word of ASCII letters (the analyzer folds and lowercases first; words with
 * digits or non-ASCII letters are not passed here). Output: its stem. Pure and deterministic.
 *
 * Each step looks for the longest suffix of its list that the word ends with; when that suffix's
 * condition fails the step does nothing (shorter suffixes are not tried), as the algorithm says.
 */

const EXCEPTIONS1: ReadonlyMap<string, string> = new Map([
  ['skis', 'ski'],
  ['skies', 'sky'],
  ['dying', 'die'],
  ['lying', 'lie'],
  ['tying', 'tie'],
  ['idly', 'idl'],
  ['gently', 'gentl'],
  ['ugly', 'ugli'],
  ['early', 'earli'],
  ['only', 'onli'],
  ['singly', 'singl'],
  ['sky', 'sky'],
  ['news', 'news'],
  ['howe', 'howe'],
  ['atlas', 'atlas'],
  ['cosmos', 'cosmos'],
  ['bias', 'bias'],
  ['andes', 'andes'],
]);

const EXCEPTIONS2: ReadonlySet<string> = new Set([
  'inning',
  'outing',
  'canning',
  'herring',
  'earring',
  'proceed',
  'exceed',
  'succeed',
]);

function isVowel(c: string | undefined): boolean {
  return c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u' || c === 'y';
}

function isDouble(w: string): boolean {
  if (w.length < 2) return false;
  const a = w[w.length - 1];
  return (
    a === w[w.length - 2] &&
    (a === 'b' ||
      a === 'd' ||
      a === 'f' ||
      a === 'g' ||
      a === 'm' ||
      a === 'n' ||
      a === 'p' ||
      a === 'r' ||
      a === 't')
  );
}

function isValidLi(c: string | undefined): boolean {
  return (
    c === 'c' ||
    c === 'd' ||
    c === 'e' ||
    c === 'g' ||
    c === 'h' ||
    c === 'k' ||
    c === 'm' ||
    c === 'n' ||
    c === 'r' ||
    c === 't'
  );
}

/** Does w (ending at index end, exclusive) end with a short syllable? */
function endsWithShortSyllable(w: string, end: number): boolean {
  if (end === 2) return isVowel(w[0]) && !isVowel(w[1]);
  if (end < 3) return false;
  const c3 = w[end - 1];
  return (
    !isVowel(w[end - 3]) && isVowel(w[end - 2]) && !isVowel(c3) && c3 !== 'w' && c3 !== 'x' && c3 !== 'Y'
  );
}

function regionAfterVC(w: string, from: number): number {
  for (let i = from + 1; i < w.length; i++) {
    if (!isVowel(w[i]) && isVowel(w[i - 1])) return i + 1;
  }
  return w.length;
}

function markR1(w: string): number {
  if (w.startsWith('gener') || w.startsWith('arsen')) return 5;
  if (w.startsWith('commun')) return 6;
  return regionAfterVC(w, 0);
}

function containsVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (isVowel(w[i])) return true;
  return false;
}

/** Longest suffix of `w` among `suffixes` (which must be sorted longest first), or undefined. */
function longestSuffix(w: string, suffixes: readonly string[]): string | undefined {
  for (const s of suffixes) if (w.endsWith(s)) return s;
  return undefined;
}

const STEP1B = ['eedly', 'ingly', 'edly', 'eed', 'ing', 'ed'];

const STEP2: ReadonlyArray<readonly [string, string]> = [
  ['ization', 'ize'],
  ['ational', 'ate'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['iveness', 'ive'],
  ['tional', 'tion'],
  ['biliti', 'ble'],
  ['lessli', 'less'],
  ['entli', 'ent'],
  ['ation', 'ate'],
  ['alism', 'al'],
  ['aliti', 'al'],
  ['ousli', 'ous'],
  ['iviti', 'ive'],
  ['fulli', 'ful'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['abli', 'able'],
  ['izer', 'ize'],
  ['ator', 'ate'],
  ['alli', 'al'],
  ['bli', 'ble'],
  ['ogi', 'og'],
  ['li', ''],
];
const STEP2_SUFFIXES = STEP2.map(([s]) => s);
const STEP2_MAP = new Map(STEP2);

const STEP3: ReadonlyArray<readonly [string, string]> = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['alize', 'al'],
  ['icate', 'ic'],
  ['iciti', 'ic'],
  ['ative', ''],
  ['ical', 'ic'],
  ['ness', ''],
  ['ful', ''],
];
const STEP3_SUFFIXES = STEP3.map(([s]) => s);
const STEP3_MAP = new Map(STEP3);

const STEP4 = [
  'ement',
  'ance',
  'ence',
  'able',
  'ible',
  'ment',
  'ant',
  'ent',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
  'ion',
  'al',
  'er',
  'ic',
];

/** Stem one lowercase ASCII word with the Snowball English (Porter2) algorithm. */
export function stemEnglish(word: string): string {
  if (word.length <= 2) return word;
  const exc = EXCEPTIONS1.get(word);
  if (exc !== undefined) return exc;

  let w = word.charCodeAt(0) === 39 ? word.slice(1) : word;
  // Mark y as consonant Y at the start or after a vowel.
  if (w.includes('y')) {
    let out = '';
    for (let i = 0; i < w.length; i++) {
      const c = w[i] as string;
      out += c === 'y' && (i === 0 || isVowel(out[i - 1])) ? 'Y' : c;
    }
    w = out;
  }
  const r1 = markR1(w);
  const r2 = regionAfterVC(w, r1);

  // Step 0: possessives.
  if (w.endsWith("'s'")) w = w.slice(0, -3);
  else if (w.endsWith("'s")) w = w.slice(0, -2);
  else if (w.endsWith("'")) w = w.slice(0, -1);

  // Step 1a.
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ied') || w.endsWith('ies')) w = w.length > 4 ? w.slice(0, -2) : w.slice(0, -1);
  else if (w.endsWith('us') || w.endsWith('ss')) {
    // unchanged
  } else if (w.endsWith('s')) {
    if (containsVowel(w, w.length - 2)) w = w.slice(0, -1);
  }

  if (EXCEPTIONS2.has(w)) return w;

  // Step 1b.
  const s1b = longestSuffix(w, STEP1B);
  if (s1b !== undefined) {
    const start = w.length - s1b.length;
    if (s1b === 'eed' || s1b === 'eedly') {
      if (start >= r1) w = w.slice(0, start) + 'ee';
    } else if (containsVowel(w, start)) {
      w = w.slice(0, start);
      if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
      else if (isDouble(w)) w = w.slice(0, -1);
      else if (r1 >= w.length && endsWithShortSyllable(w, w.length)) w += 'e';
    }
  }

  // Step 1c.
  if (w.length > 2) {
    const last = w[w.length - 1];
    if ((last === 'y' || last === 'Y') && !isVowel(w[w.length - 2])) w = w.slice(0, -1) + 'i';
  }

  // Step 2.
  const s2 = longestSuffix(w, STEP2_SUFFIXES);
  if (s2 !== undefined) {
    const start = w.length - s2.length;
    if (start >= r1) {
      if (s2 === 'ogi') {
        if (w[start - 1] === 'l') w = w.slice(0, start) + 'og';
      } else if (s2 === 'li') {
        if (isValidLi(w[start - 1])) w = w.slice(0, start);
      } else {
        w = w.slice(0, start) + (STEP2_MAP.get(s2) as string);
      }
    }
  }

  // Step 3.
  const s3 = longestSuffix(w, STEP3_SUFFIXES);
  if (s3 !== undefined) {
    const start = w.length - s3.length;
    if (start >= r1) {
      if (s3 === 'ative') {
        if (start >= r2) w = w.slice(0, start);
      } else {
        w = w.slice(0, start) + (STEP3_MAP.get(s3) as string);
      }
    }
  }

  // Step 4.
  const s4 = longestSuffix(w, STEP4);
  if (s4 !== undefined) {
    const start = w.length - s4.length;
    if (start >= r2) {
      if (s4 === 'ion') {
        const p = w[start - 1];
        if (p === 's' || p === 't') w = w.slice(0, start);
      } else {
        w = w.slice(0, start);
      }
    }
  }

  // Step 5.
  const last = w[w.length - 1];
  if (last === 'e') {
    const start = w.length - 1;
    if (start >= r2 || (start >= r1 && !endsWithShortSyllable(w, start))) w = w.slice(0, start);
  } else if (last === 'l') {
    const start = w.length - 1;
    if (start >= r2 && w[start - 1] === 'l') w = w.slice(0, start);
  }

  return w.includes('Y') ? w.replace(/Y/g, 'y') : w;
}
