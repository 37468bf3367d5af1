/**
 * The engines compared by the benchmark, behind one small interface. MiniSearch and Lunr get the
 * same analyzer as ours (our analyze() as their tokenizer, their own stemmer and stop filter off),
 * the same field boosts, and OR semantics, so the comparison is about ranking and data structures.
 */

import lunr from 'lunr';
import MiniSearch from 'minisearch';

import type { RankingOverrides, SearchDocument, SearchIndex } from '../src/search/index.js';
import { analyze, analyzeQuery, buildIndex, search } from '../src/search/index.js';

export interface Engine {
  name: string;
  /** Build from documents; returns the opaque index. */
  build(docs: readonly SearchDocument[]): unknown;
  /** Ranked keys. */
  query(index: unknown, text: string, limit: number): string[];
}

export function frontdoorEngine(name: string, ranking?: RankingOverrides): Engine {
  return {
    name,
    build: (docs) => buildIndex(docs, ranking ? { ranking } : {}),
    query: (index, text, limit) => search(index as SearchIndex, text, { limit }).map((r) => r.key),
  };
}

/** Field boosts given to the peers: the same as our BM25F field weights. */
export const PEER_BOOSTS = { title: 2, headings: 1.5, body: 1 };

/** Query terms (question words dropped, as ours) repeated by their query-term frequency. */
function queryTerms(text: string): string[] {
  const out: string[] = [];
  for (const q of analyzeQuery(text)) for (let i = 0; i < q.weight; i++) out.push(q.term);
  return out;
}

interface FlatDoc {
  id: string;
  title: string;
  headings: string;
  body: string;
}

function flat(d: SearchDocument): FlatDoc {
  return { id: d.key, title: d.fields.title, headings: d.fields.headings, body: d.fields.body };
}

/**
 * MiniSearch 7 with BM25 k 1.2, b 0.75, d (BM25+ lower bound) 0.5 — its default; d 0 was also
 * tried and is reported by the quality part —, OR, no prefix or fuzzy matching (those lower
 * precision on natural-language questions).
 */
export function miniSearchEngine(name = 'MiniSearch 7.2', d = 0.5): Engine {
  const bm25 = { k: 1.2, b: 0.75, d };
  return {
    name,
    build: (docs) => {
      const ms = new MiniSearch<FlatDoc>({
        fields: ['title', 'headings', 'body'],
        idField: 'id',
        storeFields: [],
        tokenize: (text) => analyze(text),
        processTerm: (term) => term,
        searchOptions: {
          boost: PEER_BOOSTS,
          combineWith: 'OR',
          prefix: false,
          fuzzy: false,
          bm25,
          tokenize: queryTerms,
          processTerm: (term) => term,
        },
      });
      ms.addAll(docs.map(flat));
      return ms;
    },
    query: (index, text, limit) =>
      (index as MiniSearch<FlatDoc>)
        .search(text)
        .slice(0, limit)
        .map((r) => String(r.id)),
  };
}

/** Lunr 2.3 with our analyzer (pipeline emptied), k1 1.2, b 0.75, field boosts, optional terms. */
export function lunrEngine(name = 'Lunr 2.3'): Engine {
  return {
    name,
    build: (docs) =>
      lunr(function () {
        this.pipeline.reset();
        this.searchPipeline.reset();
        this.ref('id');
        this.field('title', { boost: PEER_BOOSTS.title });
        this.field('headings', { boost: PEER_BOOSTS.headings });
        this.field('body', { boost: PEER_BOOSTS.body });
        this.k1(1.2);
        this.b(0.75);
        for (const d of docs) {
          // Already analyzed terms, space separated (Lunr's tokenizer splits on spaces).
          this.add({
            id: d.key,
            title: analyze(d.fields.title).join(' '),
            headings: analyze(d.fields.headings).join(' '),
            body: analyze(d.fields.body).join(' '),
          });
        }
      }),
    query: (index, text, limit) => {
      const terms = analyzeQuery(text);
      if (terms.length === 0) return [];
      return (index as lunr.Index)
        .query((q) => {
          for (const t of terms) {
            q.term(t.term, {
              boost: t.weight,
              usePipeline: false,
              wildcard: lunr.Query.wildcard.NONE,
              presence: lunr.Query.presence.OPTIONAL,
            });
          }
        })
        .slice(0, limit)
        .map((r) => r.ref);
    },
  };
}
