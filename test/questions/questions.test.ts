import { describe, expect, it } from 'vitest';

import { BUNDLED_CONTENT_DIR } from '../../src/config/index.js';
import { loadSite } from '../../src/content/index.js';
import { DEFAULT_MAX_RESULTS } from '../../src/contract/nlweb.js';
import { createAskService } from '../../src/nlweb/index.js';
import {
  askRanking,
  evaluateQuestions,
  loadQuestions,
  QUESTION_FLOOR,
  QUESTION_KINDS,
  type QuestionMiss,
} from './evaluate.js';

const questions = loadQuestions();
const { site } = await loadSite(BUNDLED_CONTENT_DIR);

const describeMiss = (miss: QuestionMiss): string =>
  `  [${miss.kind}] "${miss.q}": ${miss.rank === null ? 'not in the top 10' : `rank ${miss.rank}`}; shown ${miss.shown.join(', ') || 'nothing'}`;

describe('the sample site question set', () => {
  it('has at least 60 questions of every kind, each answered by pages that exist', () => {
    expect(questions.length).toBeGreaterThanOrEqual(60);
    for (const kind of QUESTION_KINDS)
      expect(questions.filter((question) => question.kind === kind).length).toBeGreaterThanOrEqual(8);
    const missing = questions.flatMap((question) =>
      question.answers.filter((url) => !site.byUrl.has(url)).map((url) => `"${question.q}" → ${url}`),
    );
    expect(missing).toEqual([]);
    const queries = questions.map((question) => question.q.toLowerCase());
    expect(new Set(queries).size).toBe(queries.length);
  });

  it('gets the same first page whatever max_results asks for, up to twice the default', () => {
    const service = createAskService(site, 'http://questions.invalid', { cacheSize: 0 });
    const first = (text: string, maxResults: number): string | undefined => {
      const answer = service.answer({ text, maxResults, conversationId: null }, 'question-set');
      const item = answer.content.find((entry) => entry.type === 'resource');
      return item?.type === 'resource' ? item.resource.uri : undefined;
    };
    const differing = questions.flatMap((question) => {
      const pages = [1, 5, DEFAULT_MAX_RESULTS, 2 * DEFAULT_MAX_RESULTS].map((n) => first(question.q, n));
      return new Set(pages).size > 1 ? [`"${question.q}": ${pages.join(', ')}`] : [];
    });
    expect(differing).toEqual([]);
  });

  it(`is answered through /ask with success@1 ≥ ${QUESTION_FLOOR.success1} and success@3 ≥ ${QUESTION_FLOOR.success3}`, async () => {
    const score = await evaluateQuestions(questions, askRanking(site));
    const report = [
      `success@1 ${score.success1.toFixed(3)}, success@3 ${score.success3.toFixed(3)}, MRR ${score.mrr10.toFixed(3)} over ${score.questions} questions`,
      'not first:',
      ...score.misses.map(describeMiss),
    ].join('\n');
    expect(score.success1, report).toBeGreaterThanOrEqual(QUESTION_FLOOR.success1);
    expect(score.success3, report).toBeGreaterThanOrEqual(QUESTION_FLOOR.success3);
  });
});
