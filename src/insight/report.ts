import { CLIENT_CLASSES, type ClientClass } from './classify.js';
import { READERSHIP_DOCUMENTS } from './documents.js';
import type { InsightStore, SearchCounts } from './store.js';

/** Inclusive range of UTC days, `YYYY-MM-DD`. */
export interface InsightPeriod {
  from: string;
  to: string;
}

export type ByClass = Record<ClientClass, number>;

export interface QueryStat extends SearchCounts {
  query: string;
  /** Searches per client class. */
  byClass: ByClass;
}

export interface ClassStat extends SearchCounts {
  clientClass: ClientClass;
  /** Requests to the counted documents (discovery documents and /ask). */
  reads: number;
}

export interface DocumentStat {
  document: string;
  requests: number;
  byClass: ByClass;
  /** Agent and crawler names seen, most requests first. */
  agents: { name: string; requests: number }[];
}

export interface AgentStat {
  name: string;
  clientClass: ClientClass;
  requests: number;
  /** Requests per document, most first. */
  documents: { document: string; requests: number }[];
}

/** Everything the CLI and the HTML report show, for one period. */
export interface InsightReport {
  period: InsightPeriod;
  /** All searches, including those whose text was not stored (asked by fewer than k clients). */
  totals: SearchCounts;
  /** People vs agents: searches and reads per client class. */
  classes: ClassStat[];
  /** Searches per channel (get, post, stream, page). */
  channels: { channel: string; searches: number }[];
  /** Searches per day and class, every day of the period (zeros included), for the chart. */
  daily: { day: string; byClass: ByClass }[];
  /** Stored texts, most searched first. */
  topQueries: QueryStat[];
  /** Stored texts that found nothing, most often first. */
  zeroResultQueries: QueryStat[];
  /** Stored texts answered only by weak matches, most often first. */
  weakMatchQueries: QueryStat[];
  /** Requests per counted document, in the order of READERSHIP_DOCUMENTS. */
  readership: DocumentStat[];
  /** Known agents and crawlers by name, most requests first. */
  agents: AgentStat[];
}

const DAY_MS = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

export const isoDayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Whether `text` is a real calendar day written YYYY-MM-DD. */
export function isIsoDay(text: string): boolean {
  if (!ISO_DAY.test(text)) return false;
  const at = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(at) && isoDayOf(at) === text;
}

/**
 * The longest period a report covers, in days (ten years): the report lists every day of its
 * period, and 0001-01-01 to 9999-12-31 (3.65 million days) took 9 s and 1.8 GB, then overflowed
 * the stack. The CLI's --days, its --from/--to and the admin routes share this cap.
 */
export const MAX_REPORT_DAYS = 3660;

/** Why `period` cannot be reported (`from` after `to`, or longer than MAX_REPORT_DAYS), else null. */
export function periodProblem(period: InsightPeriod, names = { from: 'from', to: 'to' }): string | null {
  if (period.from > period.to)
    return `${names.from} (${period.from}) must not be after ${names.to} (${period.to}).`;
  const days = (Date.parse(`${period.to}T00:00:00Z`) - Date.parse(`${period.from}T00:00:00Z`)) / DAY_MS + 1;
  if (days > MAX_REPORT_DAYS)
    return `the period ${period.from} to ${period.to} is ${days} days long; a report covers at most ${MAX_REPORT_DAYS} days: move ${names.from} or ${names.to} closer.`;
  return null;
}

/** The last `days` days up to and including `today`. */
export function lastDays(days: number, today: string): InsightPeriod {
  return { from: isoDayOf(Date.parse(`${today}T00:00:00Z`) - (days - 1) * DAY_MS), to: today };
}

const zeroByClass = (): ByClass => ({ browser: 0, agent: 0, crawler: 0, other: 0 });

/** Most first, then alphabetical, so equal counts always come out in the same order. */
const byCountThenName =
  <T>(count: (item: T) => number, name: (item: T) => string) =>
  (a: T, b: T) =>
    count(b) - count(a) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);

/** Reads a period's aggregates and shapes them; `limit` bounds each list of queries and agents. */
export async function readInsightReport(
  store: InsightStore,
  period: InsightPeriod,
  limit = 20,
): Promise<InsightReport> {
  const problem = periodProblem(period);
  if (problem !== null) throw new RangeError(problem);
  const stored = await store.read(period.from, period.to);

  const totals: SearchCounts = { searches: 0, zeroResults: 0, weakMatches: 0 };
  const classes = new Map<ClientClass, ClassStat>(
    CLIENT_CLASSES.map((clientClass) => [
      clientClass,
      { clientClass, searches: 0, zeroResults: 0, weakMatches: 0, reads: 0 },
    ]),
  );
  const channels = new Map<string, number>();
  for (const row of stored.searchesByChannel) {
    totals.searches += row.searches;
    totals.zeroResults += row.zeroResults;
    totals.weakMatches += row.weakMatches;
    const stat = classes.get(row.clientClass);
    if (stat) {
      stat.searches += row.searches;
      stat.zeroResults += row.zeroResults;
      stat.weakMatches += row.weakMatches;
    }
    channels.set(row.channel, (channels.get(row.channel) ?? 0) + row.searches);
  }

  const daily = new Map<string, ByClass>();
  for (
    let at = Date.parse(`${period.from}T00:00:00Z`);
    at <= Date.parse(`${period.to}T00:00:00Z`);
    at += DAY_MS
  )
    daily.set(isoDayOf(at), zeroByClass());
  for (const row of stored.searchesByDay) {
    const day = daily.get(row.day);
    if (day && row.clientClass in day) day[row.clientClass] += row.searches;
  }

  const queries = new Map<string, QueryStat>();
  for (const row of stored.queries) {
    let stat = queries.get(row.query);
    if (!stat)
      queries.set(
        row.query,
        (stat = { query: row.query, searches: 0, zeroResults: 0, weakMatches: 0, byClass: zeroByClass() }),
      );
    stat.searches += row.searches;
    stat.zeroResults += row.zeroResults;
    stat.weakMatches += row.weakMatches;
    if (row.clientClass in stat.byClass) stat.byClass[row.clientClass] += row.searches;
  }
  const allQueries = [...queries.values()];
  const ranked = (count: (q: QueryStat) => number) =>
    allQueries
      .filter((q) => count(q) > 0)
      .sort(byCountThenName(count, (q) => q.query))
      .slice(0, limit);

  const documents = new Map<string, DocumentStat>();
  const agents = new Map<string, AgentStat>();
  for (const row of stored.reads) {
    let doc = documents.get(row.document);
    if (!doc)
      documents.set(
        row.document,
        (doc = { document: row.document, requests: 0, byClass: zeroByClass(), agents: [] }),
      );
    doc.requests += row.requests;
    if (row.clientClass in doc.byClass) doc.byClass[row.clientClass] += row.requests;
    const stat = classes.get(row.clientClass);
    if (stat) stat.reads += row.requests;
    if (row.agent === '') continue;
    const seen = doc.agents.find((a) => a.name === row.agent);
    if (seen) seen.requests += row.requests;
    else doc.agents.push({ name: row.agent, requests: row.requests });
    let agent = agents.get(row.agent);
    if (!agent)
      agents.set(
        row.agent,
        (agent = { name: row.agent, clientClass: row.clientClass, requests: 0, documents: [] }),
      );
    agent.requests += row.requests;
    const read = agent.documents.find((d) => d.document === row.document);
    if (read) read.requests += row.requests;
    else agent.documents.push({ document: row.document, requests: row.requests });
  }
  const order = (name: string) => {
    const index = (READERSHIP_DOCUMENTS as readonly string[]).indexOf(name);
    return index === -1 ? READERSHIP_DOCUMENTS.length : index;
  };
  const readership = [...documents.values()].sort(
    (a, b) => order(a.document) - order(b.document) || (a.document < b.document ? -1 : 1),
  );
  for (const doc of readership)
    doc.agents.sort(
      byCountThenName(
        (a) => a.requests,
        (a) => a.name,
      ),
    );
  const agentList = [...agents.values()]
    .sort(
      byCountThenName(
        (a) => a.requests,
        (a) => a.name,
      ),
    )
    .slice(0, limit);
  for (const agent of agentList)
    agent.documents.sort(
      byCountThenName(
        (d) => d.requests,
        (d) => d.document,
      ),
    );

  return {
    period,
    totals,
    classes: [...classes.values()],
    channels: [...channels.entries()]
      .map(([channel, searches]) => ({ channel, searches }))
      .sort(
        byCountThenName(
          (c) => c.searches,
          (c) => c.channel,
        ),
      ),
    daily: [...daily.entries()].map(([day, byClass]) => ({ day, byClass })),
    topQueries: ranked((q) => q.searches),
    zeroResultQueries: ranked((q) => q.zeroResults),
    weakMatchQueries: ranked((q) => q.weakMatches),
    readership,
    agents: agentList,
  };
}
