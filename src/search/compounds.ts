/**
 * German, Dutch, the Nordic languages and Finnish write a compound as one word
 * ("Festplattennutzung", "gegevensbank", "arbetsminne"), so a query word may be absent from a site
 * that has both of its parts ("Nutzung der Festplatte"). At query time a word of such a language
 * that the site does not have is split into words the site does have, in that language: the
 * longest first part that leads to a full split wins, parts of MIN_COMPOUND_PART letters or more,
 * with a language's linking letters allowed between two parts ("Festplatte-n-nutzung",
 * "Arbeit-s-speicher"). Only the site's own vocabulary decides, so no word list ships with it and
 * a word the site knows whole is never cut. The index is not changed: splitting at index time
 * would need the whole vocabulary first and doubles the terms of every compound.
 */

/** Shortest part: four letters keeps "Verarbeitung" from meeting "ver" or "arb" on a site. */
export const MIN_COMPOUND_PART = 4;
/** Most parts a word is cut into (a German noun of five words is already rare). */
export const MAX_COMPOUND_PARTS = 4;

/** Letters that may join two parts (Fugenelemente and their cousins), by primary subtag. */
const LINKING: Readonly<Record<string, readonly string[]>> = {
  de: ['s', 'es', 'n', 'en', 'e', 'er', 'ens'],
  nl: ['s', 'e', 'en'],
  da: ['s', 'e'],
  sv: ['s', 'a', 'u', 'o', 'e'],
  nb: ['s', 'e'],
  nn: ['s', 'e'],
  no: ['s', 'e'],
  // Finnish joins its parts as they are (a genitive first part is a word of its own).
  fi: [],
};

/** The linking letters of a compounding language (a BCP 47 primary subtag), or null for any other. */
export function compoundLinking(code: string): readonly string[] | null {
  return LINKING[code] ?? null;
}

/**
 * `word` cut into two to MAX_COMPOUND_PARTS parts that `isPart` accepts (told whether the part
 * ends the word: the last part carries the inflection, "Festplattennutzungen"), each of
 * MIN_COMPOUND_PART letters or more, with one of `linking` allowed between two parts; the longest
 * first part that leads to a full split wins, then the longest second part, and so on. The
 * linking letters are not in the parts. Null when there is no such split.
 */
export function splitCompound(
  word: string,
  isPart: (part: string, last: boolean) => boolean,
  linking: readonly string[],
): string[] | null {
  const joins = ['', ...linking];
  // Positions from which the rest cannot be split (with that many parts left): each is tried once.
  const failed = new Set<number>();
  const rest = (from: number, partsLeft: number, whole: boolean): string[] | null => {
    const key = from * (MAX_COMPOUND_PARTS + 1) + partsLeft;
    if (failed.has(key)) return null;
    // The word itself is not a split of itself: the first part ends before the word does.
    const longest = whole ? word.length - MIN_COMPOUND_PART : word.length;
    for (let end = longest; end - from >= MIN_COMPOUND_PART; end--) {
      const part = word.slice(from, end);
      if (!isPart(part, end === word.length)) continue;
      if (end === word.length) return [part];
      if (partsLeft <= 1) continue;
      for (const join of joins) {
        if (!word.startsWith(join, end) || word.length - end - join.length < MIN_COMPOUND_PART) continue;
        const after = rest(end + join.length, partsLeft - 1, false);
        if (after) return [part, ...after];
      }
    }
    failed.add(key);
    return null;
  };
  if (word.length < 2 * MIN_COMPOUND_PART) return null;
  return rest(0, MAX_COMPOUND_PARTS, true);
}
