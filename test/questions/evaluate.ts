/**
 * The sample site's question set (sample-site.yaml) and the one function that scores a search on
 * it, shared by the core test's floor (questions.test.ts) and `npm run bench`, so both report the
 * same figures.
 */

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

import type { Site } from '../../src/content/index.js';
import { createAskService } from '../../src/nlweb/index.js';

export const QUESTION_KINDS = ['keyword', 'question', 'typo', 'partial', 'synonym'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

export interface Question {
  q: string;
  kind: QuestionKind;
  /** URLs of the pages that answer it; a result on any of them counts. */
  answers: string[];
}

/** The floor the core test holds: the targets. */
export const QUESTION_FLOOR = { success1: 0.8, success3: 0.95 };

export const SAMPLE_SITE_QUESTIONS = join(dirname(fileURLToPath(import.meta.url)), 'sample-site.yaml');

/** Reads and checks the question file; a malformed entry throws with its position. */
export function loadQuestions(file = SAMPLE_SITE_QUESTIONS): Question[] {
  const data: unknown = parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(data)) throw new Error(`${file}: expected a list of questions`);
  return data.map((entry: unknown, i) => {
    const item = entry as Partial<Question> | null;
    const valid =
      item !== null &&
      typeof item.q === 'string' &&
      item.q.trim() !== '' &&
      QUESTION_KINDS.includes(item.kind as QuestionKind) &&
      Array.isArray(item.answers) &&
      item.answers.length > 0 &&
      item.answers.every((url) => typeof url === 'string' && url.startsWith('/'));
    if (!valid)
      throw new Error(
        `${file}: entry ${i + 1} needs q (text), kind (${QUESTION_KINDS.join('|')}) and answers (page URLs)`,
      );
    return { q: item.q!, kind: item.kind!, answers: item.answers! };
  });
}

export interface QuestionMiss {
  q: string;
  kind: QuestionKind;
  /** 1-based rank of the first answering page in the top 10, or null. */
  rank: number | null;
  /** The first three pages shown. */
  shown: string[];
}

export interface QuestionScore {
  questions: number;
  success1: number;
  success3: number;
  mrr10: number;
  byKind: Record<QuestionKind, { questions: number; success1: number; success3: number }>;
  /** Every question not answered at rank 1, in file order. */
  misses: QuestionMiss[];
}

/**
 * Scores a search on the questions: `rank` returns the page URL of each entry the user is shown,
 * in order (several entries may lead to one page). success@k: an answering page among the first
 * k entries; MRR over the top 10.
 */
export async function evaluateQuestions(
  questions: readonly Question[],
  rank: (query: string) => string[] | Promise<string[]>,
): Promise<QuestionScore> {
  const byKind = Object.fromEntries(
    QUESTION_KINDS.map((kind) => [kind, { questions: 0, success1: 0, success3: 0 }]),
  ) as QuestionScore['byKind'];
  const misses: QuestionMiss[] = [];
  let s1 = 0;
  let s3 = 0;
  let mrr = 0;
  for (const question of questions) {
    const shown = (await rank(question.q)).slice(0, 10);
    const answers = new Set(question.answers);
    const index = shown.findIndex((url) => answers.has(url));
    const kind = byKind[question.kind];
    kind.questions++;
    if (index === 0) {
      s1++;
      kind.success1++;
    } else
      misses.push({
        q: question.q,
        kind: question.kind,
        rank: index < 0 ? null : index + 1,
        shown: shown.slice(0, 3),
      });
    if (index >= 0 && index < 3) {
      s3++;
      kind.success3++;
    }
    if (index >= 0) mrr += 1 / (index + 1);
  }
  for (const kind of Object.values(byKind)) {
    kind.success1 = kind.questions ? kind.success1 / kind.questions : 0;
    kind.success3 = kind.questions ? kind.success3 / kind.questions : 0;
  }
  const n = questions.length || 1;
  return { questions: questions.length, success1: s1 / n, success3: s3 / n, mrr10: mrr / n, byKind, misses };
}

/**
 * Frontdoor as users meet it: the ask service's answer (the code behind GET /ask), the page of
 * each resource in answer order.
 */
export function askRanking(site: Site): (query: string) => string[] {
  const base = 'http://questions.invalid';
  const service = createAskService(site, base, { cacheSize: 0 });
  return (text) => {
    const answer = service.answer({ text, maxResults: 10, conversationId: null }, 'question-set');
    const pages: string[] = [];
    for (const item of answer.content) {
      if (item.type !== 'resource') continue;
      if (!item.resource.uri) throw new Error(`an /ask result has no uri (query "${text}")`);
      const { pathname } = new URL(item.resource.uri);
      pages.push(pathname.split('/').map(decodeURIComponent).join('/'));
    }
    return pages;
  };
}
