/**
 * What the ask service indexes: one search document per passage. Kept apart from the service so
 * that a parse worker can load it alone (scripts/bundle.mjs makes it an entry of its own) and
 * analyse the passages of the pages it has just built, in parallel with the other workers: that
 * analysis is most of an index build.
 */

import type { Page, Passage } from '../content/index.js';
import {
  analyseDocuments,
  buildIndex,
  compareKeys,
  LINK_LIST_BOOST,
  selectAnalysed,
  type AnalysedDocuments,
  type SearchDocument,
  type SearchIndex,
} from '../search/index.js';
import { linkListSections } from './page-traits.js';

/**
 * The index of every passage of these pages, as the ask service searches it (the generation
 * worker builds it with this too), from the batches analysed ahead where given. The documents are
 * not kept: ~1 MB of joined headings on a large site.
 */
export function buildPassageIndex(
  pages: readonly Page[],
  analysed: readonly AnalysedDocuments[] = [],
): SearchIndex {
  return buildIndex(passageDocuments(pages), { analysed });
}

/**
 * The page step a parse worker runs (see PageStep in src/content/parallel.ts): its pages'
 * passages analysed for buildPassageIndex.
 */
export function runPageStep(pages: readonly Page[]): AnalysedDocuments {
  return analyseDocuments(passageDocuments(pages));
}

/**
 * The analysis of the passages of `pages` for buildPassageIndex, taken from `previous` (the
 * analysis kept from an earlier build) for each page `reused` marks as that build's own, unchanged
 * page, whose passages it has: only the other pages' passages are analysed (`passagesAnalysed`).
 * On the docs corpus, analysing every passage was about two thirds of an index build. The batches
 * keep their own word numbers (combineAnalysed makes one of them, to be kept in turn).
 */
export function analysePassages(
  pages: readonly Page[],
  previous: AnalysedDocuments | null,
  reused: readonly boolean[],
): { analysed: AnalysedDocuments[]; passagesAnalysed: number } {
  const had = new Set(previous?.keys);
  const kept = new Set<string>();
  const changed: Page[] = [];
  pages.forEach((page, i) => {
    if (reused[i] === true && page.passages.every((passage) => had.has(passage.key)))
      for (const passage of page.passages) kept.add(passage.key);
    else changed.push(page);
  });
  const fresh = runPageStep(changed);
  const analysed = previous && kept.size > 0 ? [selectAnalysed(previous, kept), fresh] : [fresh];
  return { analysed, passagesAnalysed: fresh.keys.length };
}

/** Where runPageStep is, for buildSite's `pageStep` option. */
export const PASSAGE_ANALYSIS_STEP = { module: 'nlweb/passage-index' } as const;

function passageDocuments(pages: readonly Page[]): SearchDocument[] {
  return pages.flatMap((page) => page.passages.map((passage) => passageDocument(page, passage)));
}

/**
 * What the index holds for one passage: title = page title, headings = heading path below the
 * title joined with " > " (for the page's first passage, also its aliases, keywords and tags),
 * body = passage text; a link-list section weighs LINK_LIST_BOOST. Exported so the benchmark
 * indexes exactly this.
 */
export function passageDocument(page: Page, passage: Passage): SearchDocument {
  let facts = pageFacts.get(page);
  if (!facts) pageFacts.set(page, (facts = { lists: linkListSections(page), lead: leadPassage(page) }));
  const { lists } = facts;
  const headings = headingsBelowTitle(page, passage).join(' > ');
  const names =
    passage === facts.lead
      ? [...(page.aliases ?? []), ...(page.keywords ?? []), ...page.tags].join(' ; ')
      : '';
  return {
    key: passage.key,
    ...(page.lang ? { lang: page.lang } : {}),
    fields: {
      title: page.title,
      headings: names === '' ? headings : headings === '' ? names : `${headings} ; ${names}`,
      body: passage.text,
    },
    ...(lists.has(passage.anchor) ? { boost: LINK_LIST_BOOST } : {}),
  };
}

/** Per page, once: its link-list sections and its lead passage (the one that carries its names). */
const pageFacts = new WeakMap<Page, { lists: Set<string | null>; lead: Passage | undefined }>();

/** The text before the page's first heading, else its first section in key order. */
function leadPassage(page: Page): Passage | undefined {
  let lead: Passage | undefined;
  for (const p of page.passages) {
    if (p.anchor === null) return p;
    if (!lead || compareKeys(p.key, lead.key) < 0) lead = p;
  }
  return lead;
}

/** The heading path without a leading copy of the page title (the title is its own field). */
export function headingsBelowTitle(page: Page, passage: Passage): string[] {
  const path = passage.headingPath;
  return path.length > 0 && path[0] === page.title ? path.slice(1) : [...path];
}
