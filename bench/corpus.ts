/**
 * The docs corpus (OWASP cheat sheets and tldr pages) loaded as ONE site by the product's own
 * content loader, and turned into search documents exactly as the ask service does
 * (`passageDocument` from src/nlweb/passage-index.ts), so every engine is fed what /ask indexes.
 */

import type { Page, Site } from '../src/content/index.js';
import { loadSite } from '../src/content/index.js';
import { passageDocument } from '../src/nlweb/index.js';
import type { SearchDocument } from '../src/search/index.js';

export interface DocsCorpus {
  site: Site;
  /** Content problems the loader reported (warnings: the corpus has no `_site.yaml`, …). */
  problems: number;
  loadMs: number;
  passages: SearchDocument[];
  /** Passage key → URL of its page, to judge hits at page level. */
  pageOfPassage: Map<string, string>;
}

export async function loadDocsCorpus(root: string): Promise<DocsCorpus> {
  const t0 = performance.now();
  const { site, problems } = await loadSite(root);
  const loadMs = performance.now() - t0;
  const passages: SearchDocument[] = [];
  const pageOfPassage = new Map<string, string>();
  for (const page of site.pages) {
    for (const passage of page.passages) {
      passages.push(passageDocument(page, passage));
      pageOfPassage.set(passage.key, page.url);
    }
  }
  return { site, problems: problems.length, loadMs, passages, pageOfPassage };
}

export const isTldrPage = (page: Page): boolean => page.sourcePath.startsWith('tldr-pages/');

/** A tldr page's one-line description without the "More information: <link>" tail. */
export function tldrDescription(page: Page): string {
  return page.description.replace(/\s*More information.*$/s, '').trim();
}
