/**
 * Heading anchors. The slug follows GitHub's rule (lowercase, punctuation dropped, each space a
 * hyphen) because authors write links such as `Other_Page.md#some-section` against it, and adds
 * Unicode folding so "Données résidence" and "Donnees residence" give the same anchor.
 */
import { foldLetters } from '../unicode/index.js';

const NOT_SLUG_CHARACTER = /[^\p{L}\p{N}\s_-]+/gu;
const WHITESPACE = /\s/gu;

/** Lowercase, diacritics removed, a few letters spelled out: the folding search uses too. */
export function foldText(text: string): string {
  return foldLetters(text).normalize('NFC');
}

/** The anchor a heading text gets before de-duplication; never empty. */
export function slugify(text: string): string {
  const slug = foldText(text.trim()).replace(NOT_SLUG_CHARACTER, '').replace(WHITESPACE, '-');
  // A heading of only punctuation or symbols still needs an id.
  return slug.replace(/^-+|-+$/g, '') === '' ? 'section' : slug;
}

/**
 * Hands out anchors unique within one page: the first "Usage" is `usage`, the next `usage-2`,
 * then `usage-3`; an anchor already taken by an earlier heading is never reused.
 */
export class AnchorAllocator {
  private readonly taken: Set<string>;
  /**
   * The next suffix to try for each base: without it, the n-th repeat of a heading tried n - 1
   * taken anchors first, and a page of 20,000 "## Same heading" took minutes (quadratic). A suffix
   * is only ever tried once per base, so the work is linear in the headings (plus the anchors
   * another heading happened to take).
   */
  private readonly nextSuffix = new Map<string, number>();

  /** `reserved`: ids the page layout uses itself, which a heading must not take. */
  constructor(reserved: Iterable<string> = []) {
    this.taken = new Set(reserved);
  }

  allocate(text: string): string {
    const base = slugify(text);
    let anchor = base;
    if (this.taken.has(anchor)) {
      let suffix = this.nextSuffix.get(base) ?? 2;
      for (anchor = `${base}-${suffix}`; this.taken.has(anchor); anchor = `${base}-${suffix}`) suffix += 1;
      this.nextSuffix.set(base, suffix + 1);
    }
    this.taken.add(anchor);
    return anchor;
  }
}
