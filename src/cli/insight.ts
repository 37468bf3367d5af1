import { existsSync } from 'node:fs';
import { loadConfig } from '../config/index.js';
import {
  isIsoDay,
  isoDayOf,
  lastDays,
  MAX_REPORT_DAYS,
  openInsightStore,
  periodProblem,
  readInsightReport,
  type InsightPeriod,
  type InsightReport,
  type QueryStat,
} from '../insight/index.js';
import { processIo, type CliIo } from './submissions.js';
import { formatTable } from './table.js';
import { cliOptions, UsageError } from './options.js';

const USAGE = `Usage:
  frontdoor insight [--days N | --from YYYY-MM-DD [--to YYYY-MM-DD]] [--limit N] [--json]

Shows what people and agents searched for and which agents read the discovery documents, over
the period (the last 30 days, today included, unless given; days are UTC):
  people vs agents    searches, zero results, weak matches and document reads per client class
  top queries         the most asked searches
  zero results        searches that found nothing (candidates for new documents)
  weak matches        searches whose best result matched under two thirds of their words
  agent readership    requests to llms.txt, Markdown twins, openapi.json, agent skills, ... and /ask
  agents              the agents and crawlers seen by name
A search's text appears only once INSIGHT_MIN_CLIENTS distinct clients asked it on one day; the
totals count every search. --limit bounds each list (default 20); --json prints the report for scripts.

The configuration (DATA_DIR or DATABASE_URL) is read from the environment like "serve".
`;

interface InsightOptions {
  period: InsightPeriod;
  limit: number;
  json: boolean;
}

function parseOptions(args: string[], today: string): InsightOptions {
  let days: number | null = null;
  let from: string | null = null;
  let to: string | null = null;
  let limit = 20;
  let json = false;
  for (const { arg, name, value } of cliOptions(args)) {
    const day = () => {
      const text = value();
      if (!isIsoDay(text))
        throw new UsageError(`${name} must be a day written YYYY-MM-DD, such as ${today}.`);
      return text;
    };
    switch (name) {
      case '--days': {
        const text = value();
        if (!/^\d{1,9}$/.test(text) || Number(text) < 1 || Number(text) > MAX_REPORT_DAYS)
          throw new UsageError(`--days must be a whole number from 1 to ${MAX_REPORT_DAYS}.`);
        days = Number(text);
        break;
      }
      case '--from':
        from = day();
        break;
      case '--to':
        to = day();
        break;
      case '--limit': {
        const text = value();
        if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 1000)
          throw new UsageError('--limit must be a whole number from 1 to 1000.');
        limit = Number(text);
        break;
      }
      case '--json':
        json = true;
        break;
      default:
        throw new UsageError(`Unknown option "${arg}".`);
    }
  }
  if (days !== null && (from !== null || to !== null))
    throw new UsageError('Give either --days or --from/--to, not both.');
  if (to !== null && from === null) throw new UsageError('--to needs --from.');
  const period = from !== null ? { from, to: to ?? today } : lastDays(days ?? 30, today);
  const problem = periodProblem(period, { from: '--from', to: '--to' });
  if (problem !== null) throw new UsageError(`${problem[0]!.toUpperCase()}${problem.slice(1)}`);
  return { period, limit, json };
}

const count = (n: number) => String(n);
/** Columns 1 to 5 of the tables below hold counts. */
const COUNT_COLUMNS = new Set([1, 2, 3, 4, 5]);

function queryTable(queries: QueryStat[], main: 'searches' | 'zeroResults' | 'weakMatches'): string {
  if (queries.length === 0) return '(none)\n';
  const title = { searches: 'SEARCHES', zeroResults: 'ZERO RESULTS', weakMatches: 'WEAK MATCHES' }[main];
  return formatTable(
    ['QUERY', title, 'PEOPLE', 'AGENTS', 'CRAWLERS', 'OTHER'],
    queries.map((q) => [
      q.query,
      count(q[main]),
      count(q.byClass.browser),
      count(q.byClass.agent),
      count(q.byClass.crawler),
      count(q.byClass.other),
    ]),
    COUNT_COLUMNS,
  );
}

const CLASS_LABELS = {
  browser: 'people (browsers)',
  agent: 'agents',
  crawler: 'crawlers',
  other: 'other clients',
};

/** The report as the terminal shows it: one titled table per question. */
export function formatInsightReport(report: InsightReport): string {
  const sections: string[] = [];
  const { period, totals } = report;
  sections.push(
    `Insight ${period.from} to ${period.to} (UTC): ${totals.searches} searches, ${totals.zeroResults} with no result, ${totals.weakMatches} weak matches.\n`,
  );
  sections.push(
    `People vs agents\n${formatTable(
      ['CLIENTS', 'SEARCHES', 'ZERO RESULTS', 'WEAK MATCHES', 'DOCUMENT READS'],
      report.classes.map((c) => [
        CLASS_LABELS[c.clientClass],
        count(c.searches),
        count(c.zeroResults),
        count(c.weakMatches),
        count(c.reads),
      ]),
      COUNT_COLUMNS,
    )}`,
  );
  sections.push(`Top queries\n${queryTable(report.topQueries, 'searches')}`);
  sections.push(`Top zero-result queries\n${queryTable(report.zeroResultQueries, 'zeroResults')}`);
  sections.push(`Weak matches\n${queryTable(report.weakMatchQueries, 'weakMatches')}`);
  sections.push(
    `Agent readership\n${
      report.readership.length === 0
        ? '(none)\n'
        : formatTable(
            ['DOCUMENT', 'REQUESTS', 'PEOPLE', 'AGENTS', 'CRAWLERS', 'OTHER', 'AGENT NAMES'],
            report.readership.map((d) => [
              d.document,
              count(d.requests),
              count(d.byClass.browser),
              count(d.byClass.agent),
              count(d.byClass.crawler),
              count(d.byClass.other),
              d.agents.map((a) => `${a.name} (${a.requests})`).join(', ') || '-',
            ]),
            COUNT_COLUMNS,
          )
    }`,
  );
  sections.push(
    `Agents and crawlers\n${
      report.agents.length === 0
        ? '(none)\n'
        : formatTable(
            ['NAME', 'CLASS', 'REQUESTS', 'DOCUMENTS'],
            report.agents.map((a) => [
              a.name,
              a.clientClass,
              count(a.requests),
              a.documents.map((d) => `${d.document} (${d.requests})`).join(', '),
            ]),
            new Set([2]),
          )
    }`,
  );
  return sections.join('\n');
}

/** `frontdoor insight`: the site owner's report in the terminal, or as JSON. */
export async function runInsight(args: string[], io: CliIo = processIo(), now = Date.now()): Promise<number> {
  if (args.includes('--help') || args.includes('-h') || args[0] === 'help') {
    io.out(USAGE);
    return 0;
  }
  let options: InsightOptions;
  try {
    options = parseOptions(args, isoDayOf(now));
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
  const config = loadConfig(io.env, io.cwd);
  if (config.database.kind === 'sqlite' && !existsSync(config.database.file)) {
    io.err(
      `No database at ${config.database.file}: set DATA_DIR to the folder the server uses (or DATABASE_URL for PostgreSQL).\n`,
    );
    return 1;
  }
  const store = await openInsightStore(config.database);
  try {
    const report = await readInsightReport(store, options.period, options.limit);
    io.out(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatInsightReport(report));
    return 0;
  } finally {
    await store.close();
  }
}
