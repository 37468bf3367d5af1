import type { AdminRoutes } from '../admin/index.js';
import { INSIGHT_REPORT_CSP, renderInsightReport } from './html.js';
import { errorBody, type ErrorBody } from '../contract/index.js';
import {
  isIsoDay,
  isoDayOf,
  lastDays,
  MAX_REPORT_DAYS,
  periodProblem,
  readInsightReport,
  type InsightPeriod,
} from './report.js';
import type { InsightStore } from './store.js';

export interface InsightReportRoutesOptions {
  store: InsightStore;
  siteName: string;
  publicBaseUrl: string;
  minClients: number;
  /** The clock (tests pin "today"). */
  now?: () => number;
}

/** Path of the HTML report on the admin listener; `${path}.json` serves the same report as JSON. */
export const INSIGHT_REPORT_PATH = '/insight';

/** Days shown when the request names no period. */
export const DEFAULT_REPORT_DAYS = 30;

type PeriodQuery = { from?: unknown; to?: unknown; days?: unknown };

/** The period a request asks for, or a message naming the parameter and what to send. */
function periodOf(query: PeriodQuery, today: string): InsightPeriod | { problem: string } {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const from = text(query.from);
  const to = text(query.to);
  const days = text(query.days);
  if (days !== undefined) {
    if (!/^\d{1,9}$/.test(days) || Number(days) < 1 || Number(days) > MAX_REPORT_DAYS)
      return { problem: `days must be a whole number from 1 to ${MAX_REPORT_DAYS}.` };
    return lastDays(Number(days), today);
  }
  if (from === undefined && to === undefined) return lastDays(DEFAULT_REPORT_DAYS, today);
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const)
    if (value !== undefined && !isIsoDay(value))
      return { problem: `${name} must be a day written YYYY-MM-DD, such as ${today}.` };
  const period = { from: from ?? lastDays(DEFAULT_REPORT_DAYS, to ?? today).from, to: to ?? today };
  const problem = periodProblem(period);
  return problem === null ? period : { problem };
}

/** A period the report cannot cover, in the spec's error envelope (both routes answer it). */
const badPeriod = (problem: string): ErrorBody =>
  errorBody(
    'VALIDATION_ERROR',
    'Validation failed',
    `Invalid report period: ${problem}`,
    `Send days=N (1 to ${MAX_REPORT_DAYS}), or from and to as YYYY-MM-DD at most ${MAX_REPORT_DAYS} days apart.`,
  );

/**
 * The insight report on the admin listener (never the public port): GET /insight as a
 * self-contained HTML page, GET /insight.json as the same report for scripts. `from`/`to` (days)
 * or `days` choose the period; the last 30 days by default.
 */
export function insightReportRoutes(options: InsightReportRoutesOptions): AdminRoutes {
  const now = options.now ?? Date.now;
  return async (app) => {
    const report = async (query: PeriodQuery) => {
      const period = periodOf(query, isoDayOf(now()));
      return 'problem' in period ? period : readInsightReport(options.store, period);
    };

    app.get(INSIGHT_REPORT_PATH, async (request, reply) => {
      const result = await report(request.query as PeriodQuery);
      reply
        .header('cache-control', 'no-store')
        .header('content-security-policy', INSIGHT_REPORT_CSP)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer');
      if ('problem' in result) return reply.code(400).send(badPeriod(result.problem));
      return reply.type('text/html; charset=utf-8').send(
        renderInsightReport(result, {
          siteName: options.siteName,
          publicBaseUrl: options.publicBaseUrl,
          minClients: options.minClients,
          formAction: INSIGHT_REPORT_PATH,
        }),
      );
    });

    app.get(`${INSIGHT_REPORT_PATH}.json`, async (request, reply) => {
      const result = await report(request.query as PeriodQuery);
      reply.header('cache-control', 'no-store');
      if ('problem' in result) return reply.code(400).send(badPeriod(result.problem));
      return result;
    });
  };
}
