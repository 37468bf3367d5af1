/**
 * Cranfield 1400 reader and scoring, as /work/shared/data/README.md describes: judgments number the
 * queries 1..225 in file order (not the `.I` ids of cran.qry); gain = 5 − code (codes 1..4), 0 for
 * −1 or unjudged; nDCG@10 with the ideal ranking from all judged documents (trec_eval ndcg_cut.10);
 * Recall@10 and MRR@10 count codes 1..4 as relevant. Averages are over all 225 queries.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface CranDoc {
  id: string;
  title: string;
  authors: string;
  biblio: string;
  text: string;
}

export interface CranQuery {
  /** 1..225 in file order, the numbering of cranqrel. */
  num: number;
  text: string;
}

export interface Cranfield {
  docs: CranDoc[];
  queries: CranQuery[];
  /** Query number → document id → gain (1..4). */
  gains: Map<number, Map<string, number>>;
}

function parseSmart(text: string): Array<{ id: string; parts: Record<string, string> }> {
  const out: Array<{ id: string; parts: Record<string, string> }> = [];
  let cur: { id: string; parts: Record<string, string> } | undefined;
  let field = '';
  for (const line of text.split('\n')) {
    const m = /^\.([ITABW])(?:\s+(\S+))?\s*$/.exec(line);
    if (m) {
      if (m[1] === 'I') {
        cur = { id: String(Number(m[2])), parts: {} };
        out.push(cur);
        field = '';
      } else {
        field = m[1] as string;
        if (cur) cur.parts[field] = '';
      }
      continue;
    }
    if (cur && field) cur.parts[field] += (cur.parts[field] ? '\n' : '') + line;
  }
  return out;
}

export function loadCranfield(dir: string): Cranfield {
  const docs = parseSmart(readFileSync(path.join(dir, 'cran.all.1400'), 'utf8')).map(({ id, parts }) => ({
    id,
    title: (parts.T ?? '').trim(),
    authors: (parts.A ?? '').trim(),
    biblio: (parts.B ?? '').trim(),
    text: (parts.W ?? '').trim(),
  }));
  const queries = parseSmart(readFileSync(path.join(dir, 'cran.qry'), 'utf8')).map(({ parts }, i) => ({
    num: i + 1,
    text: (parts.W ?? '').trim(),
  }));
  const gains = new Map<number, Map<string, number>>();
  for (const line of readFileSync(path.join(dir, 'cranqrel'), 'utf8').split('\n')) {
    const [q, d, code] = line.trim().split(/\s+/).map(Number);
    if (q === undefined || d === undefined || code === undefined || Number.isNaN(code)) continue;
    const gain = code >= 1 && code <= 4 ? 5 - code : 0;
    let m = gains.get(q);
    if (!m) gains.set(q, (m = new Map()));
    m.set(String(d), gain);
  }
  return { docs, queries, gains };
}

export interface QualityScores {
  ndcg10: number;
  recall10: number;
  mrr10: number;
}

/** Per-query metrics for one ranked list of document ids. */
export function scoreQuery(
  ranked: readonly string[],
  judged: ReadonlyMap<string, number> | undefined,
): QualityScores {
  const g = judged ?? new Map<string, number>();
  const top = ranked.slice(0, 10);
  let dcg = 0;
  let hits = 0;
  let rr = 0;
  top.forEach((id, i) => {
    const gain = g.get(id) ?? 0;
    dcg += gain / Math.log2(i + 2);
    if (gain > 0) {
      hits++;
      if (rr === 0) rr = 1 / (i + 1);
    }
  });
  const ideal = [...g.values()].filter((x) => x > 0).sort((a, b) => b - a);
  let idcg = 0;
  ideal.slice(0, 10).forEach((gain, i) => (idcg += gain / Math.log2(i + 2)));
  return {
    ndcg10: idcg > 0 ? dcg / idcg : 0,
    recall10: ideal.length > 0 ? hits / ideal.length : 0,
    mrr10: rr,
  };
}

/** Mean metrics over all queries; `rank` returns the ranked document ids of a query. */
export function evaluate(
  c: Cranfield,
  rank: (q: CranQuery) => readonly string[],
): QualityScores & { perQuery: number[] } {
  let ndcg = 0;
  let recall = 0;
  let mrr = 0;
  const perQuery: number[] = [];
  for (const q of c.queries) {
    const s = scoreQuery(rank(q), c.gains.get(q.num));
    ndcg += s.ndcg10;
    recall += s.recall10;
    mrr += s.mrr10;
    perQuery.push(s.ndcg10);
  }
  const n = c.queries.length;
  return { ndcg10: ndcg / n, recall10: recall / n, mrr10: mrr / n, perQuery };
}
