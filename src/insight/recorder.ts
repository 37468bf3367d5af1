import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from 'pino';
import { normaliseQuery, type AnswerSummary } from '../nlweb/index.js';
import { CLIENT_CLASSES, createClientClassifier, type ClientClass } from './classify.js';
import { readershipDocument } from './documents.js';
import type { InsightBatch, InsightStore, QueryRow, ReadRow, SearchCounts, SearchTotalRow } from './store.js';
import { isWeakMatch } from './weak-match.js';
import { clientKey } from '../http-primitives/index.js';

/** Where a search came from: GET /ask answered as JSON, POST /ask, a streamed /ask, the /search page. */
export const SEARCH_CHANNELS = ['get', 'post', 'stream', 'page'] as const;
export type SearchChannel = (typeof SEARCH_CHANNELS)[number];

export interface InsightRecorderOptions {
  store: InsightStore;
  logger: Logger;
  /** k: distinct clients that must ask a text on one day before the text is stored. */
  minClients: number;
  /** Months of aggregates kept; older days are deleted. */
  retentionMonths: number;
  /** How often the counts gathered in memory are written (one transaction each time). */
  flushIntervalMs: number;
  /** Texts still below k that are tracked at once; past it, the older half is forgotten. */
  maxPendingQueries?: number;
  /** The clock (tests move it across midnight). */
  now?: () => number;
}

/**
 * Counts searches and document reads in memory and writes them in batches, off the request path.
 * Request handlers call `search` and `response`; both only update in-memory counters.
 */
export interface InsightRecorder {
  /** An answered search: its channel, the text as asked, what the answer found, who asked. */
  search(
    channel: SearchChannel,
    text: string,
    summary: AnswerSummary,
    headers: IncomingHttpHeaders,
    clientAddress: string,
  ): void;
  /** A response of the public listener; counted when it was a discovery document, read successfully. */
  response(
    url: string,
    statusCode: number,
    contentType: string | undefined,
    headers: IncomingHttpHeaders,
  ): void;
  /** Writes what has been counted so far (and applies retention once a day). */
  flush(): Promise<void>;
  /** Starts the periodic flush. */
  start(): void;
  /** Stops the periodic flush, writes the rest and closes the store. */
  close(): Promise<void>;
  /** Where the counts go (tests and the report read it). */
  readonly store: InsightStore;
  /** Texts waiting for k distinct clients today (for tests and monitoring). */
  readonly pendingQueries: number;
}

/**
 * Texts below k tracked at once: a few MB (each holds its text, up to k−1 hashes and 12 counts),
 * small enough that the garbage collector's marking of them stays cheap under load.
 */
export const DEFAULT_MAX_PENDING_QUERIES = 20_000;

const DAY_MS = 86_400_000;
const NORMALISED_TEXTS_KEPT = 2_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The first day kept when `months` months are retained, counted back from `today` (UTC). */
export function retentionStartDay(today: string, months: number): string {
  const [year, month, day] = today.split('-').map(Number) as [number, number, number];
  const start = new Date(Date.UTC(year, month - 1 - months, 1));
  // Clamp the day to the target month's length (31 March − 1 month = 28/29 February).
  const lastDay = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0)).getUTCDate();
  start.setUTCDate(Math.min(day, lastDay));
  return isoDay(start.getTime());
}

/** Two random 32-bit seeds, made per period and kept only in memory. */
type Salt = readonly [number, number];
const newSalt = (): Salt => {
  const bytes = randomBytes(8);
  return [bytes.readUInt32LE(0), bytes.readUInt32LE(4)];
};

/**
 * A keyed 53-bit hash of a client's address (cyrb53, a public-domain non-cryptographic string
 * hash, with both of its internal states seeded by the period's salt): it tells clients apart
 * without keeping their addresses. Not cryptographic on purpose: it runs on every search that is
 * still below k, where SHA-256 (about 1 µs per call through node:crypto) would cost a measurable
 * share of /ask throughput; and a reader of the process memory holds the salt either way, so it
 * could test guessed addresses against any keyed hash. Two clients colliding (odds ~2⁻⁵³) count
 * as one: fewer texts released, never more.
 */
export function seededHash(text: string, [seed1, seed2]: Salt): number {
  let h1 = 0xdeadbeef ^ seed1;
  let h2 = 0x41c6ce57 ^ seed2;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The text under which a search is counted: the answer's normalisation, then lower case. */
export function insightQueryText(text: string): string {
  return normaliseQuery(text).toLowerCase();
}

type Counter = SearchCounts;
const addTo = (counter: Counter, zero: boolean, weak: boolean) => {
  counter.searches += 1;
  if (zero) counter.zeroResults += 1;
  if (weak) counter.weakMatches += 1;
};
const emptyCounts = (): Counter => ({ searches: 0, zeroResults: 0, weakMatches: 0 });

/**
 * A text still below k: two small arrays, as a busy day holds tens of thousands of these.
 * `clients` has fewer than k entries; `counts` holds, for each class that asked it (most texts:
 * one), four numbers: the class's index in CLIENT_CLASSES, searches, zero results and weak
 * matches. Made to size: ~250 bytes a text with its key, where twelve counts and an empty array
 * grown by a push took ~450 (a double array's first push reserves 17 slots).
 */
interface Pending {
  /** Keyed hashes of the clients that asked it today (never written anywhere). */
  clients: number[];
  counts: number[];
}
const CLASS_INDEX: Readonly<Record<ClientClass, number>> = { browser: 0, agent: 1, crawler: 2, other: 3 };

/** The map under `key`, made on first use. */
function child<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

/**
 * Counts gathered since the last flush, in maps nested one key at a time (day, then class or text,
 * ...): a request builds no key string, and the strings it looks up (the day, a cached text, a
 * class, an agent name) are the same objects every time, whose hashes V8 keeps.
 */
class Counts {
  /** day → class → channel → counts */
  readonly searches = new Map<string, Map<ClientClass, Map<string, Counter>>>();
  /** day → text → class → counts */
  readonly queries = new Map<string, Map<string, Map<ClientClass, Counter>>>();
  /** day → document → agent → class → requests */
  readonly reads = new Map<string, Map<string, Map<string, Map<ClientClass, number>>>>();

  get empty(): boolean {
    return this.searches.size === 0 && this.queries.size === 0 && this.reads.size === 0;
  }

  addSearch(day: string, clientClass: ClientClass, channel: string, zero: boolean, weak: boolean) {
    const byChannel = child(
      child(this.searches, day, () => new Map()),
      clientClass,
      () => new Map(),
    );
    addTo(child(byChannel, channel, emptyCounts), zero, weak);
  }

  addQuery(day: string, query: string, clientClass: ClientClass, counts: Counter) {
    const byClass = child(
      child(this.queries, day, () => new Map()),
      query,
      () => new Map(),
    );
    const row = child(byClass, clientClass, emptyCounts);
    row.searches += counts.searches;
    row.zeroResults += counts.zeroResults;
    row.weakMatches += counts.weakMatches;
  }

  addRead(day: string, clientClass: ClientClass, document: string, agent: string, requests = 1) {
    const byAgent = child(
      child(this.reads, day, () => new Map()),
      document,
      () => new Map(),
    );
    const byClass = child(byAgent, agent, () => new Map());
    byClass.set(clientClass, (byClass.get(clientClass) ?? 0) + requests);
  }

  /** Adds another buffer's counts (a failed write's, put back for the next flush). */
  merge(other: Counts) {
    const batch = other.batch();
    for (const row of batch.searches) {
      const byChannel = child(
        child(this.searches, row.day, () => new Map()),
        row.clientClass,
        () => new Map(),
      );
      const mine = child(byChannel, row.channel, emptyCounts);
      mine.searches += row.searches;
      mine.zeroResults += row.zeroResults;
      mine.weakMatches += row.weakMatches;
    }
    for (const row of batch.queries) this.addQuery(row.day, row.query, row.clientClass, row);
    for (const row of batch.reads)
      this.addRead(row.day, row.clientClass, row.document, row.agent, row.requests);
  }

  /** The counts as rows. */
  batch(): InsightBatch {
    const searches: SearchTotalRow[] = [];
    for (const [day, byClass] of this.searches)
      for (const [clientClass, byChannel] of byClass)
        for (const [channel, counts] of byChannel) searches.push({ day, clientClass, channel, ...counts });
    const queries: QueryRow[] = [];
    for (const [day, byQuery] of this.queries)
      for (const [query, byClass] of byQuery)
        for (const [clientClass, counts] of byClass) queries.push({ day, query, clientClass, ...counts });
    const reads: ReadRow[] = [];
    for (const [day, byDocument] of this.reads)
      for (const [document, byAgent] of byDocument)
        for (const [agent, byClass] of byAgent)
          for (const [clientClass, requests] of byClass)
            reads.push({ day, clientClass, document, agent, requests });
    return { searches, queries, reads };
  }
}

export function createInsightRecorder(options: InsightRecorderOptions): InsightRecorder {
  const { store, logger, minClients, retentionMonths, flushIntervalMs } = options;
  const maxPending = options.maxPendingQueries ?? DEFAULT_MAX_PENDING_QUERIES;
  const now = options.now ?? Date.now;
  const classify = createClientClassifier();
  // Texts as asked → as counted. A plain map emptied when full: cheaper per hit than an LRU's
  // move-to-end, and popular texts are back in it at once.
  const normalised = new Map<string, string>();
  const countedText = (text: string): string => {
    let query = normalised.get(text);
    if (query === undefined) {
      if (normalised.size >= NORMALISED_TEXTS_KEPT) normalised.clear();
      normalised.set(text, (query = insightQueryText(text)));
    }
    return query;
  };

  let buffer = new Counts();
  // The current period (a UTC day) and what lives only for it: the salt, texts below k, texts released.
  let day = '';
  let dayEndsAt = 0;
  let salt = newSalt();
  // Texts below k in two generations: new ones go to `pending`; when it holds half the limit it
  // becomes `older` and the previous `older` is forgotten whole. Bounded memory without evicting
  // one entry at a time (deleting a Map's first entry again and again costs V8 ~20 µs each).
  let pending = new Map<string, Pending>();
  let older = new Map<string, Pending>();
  let released = new Set<string>();

  const currentDay = (): string => {
    const at = now();
    if (at >= dayEndsAt || at < dayEndsAt - DAY_MS) {
      // A new period: texts still below k are dropped with the salt that keyed their clients.
      day = isoDay(at);
      dayEndsAt = Date.parse(`${day}T00:00:00.000Z`) + DAY_MS;
      salt = newSalt();
      pending = new Map();
      older = new Map();
      released = new Set();
    }
    return day;
  };

  // A client is what the limits count as one (clientKey: an IPv6 /64, an IPv4 address): three
  // addresses of one home network asking a text are one client, not k.
  const clientHash = (address: string) => seededHash(clientKey(address), salt);

  const countQuery = (
    today: string,
    query: string,
    clientClass: ClientClass,
    address: string,
    zero: boolean,
    weak: boolean,
  ) => {
    if (released.has(query)) {
      const counts = emptyCounts();
      addTo(counts, zero, weak);
      buffer.addQuery(today, query, clientClass, counts);
      return;
    }
    const client = clientHash(address);
    const classIndex = CLASS_INDEX[clientClass];
    let entry = pending.get(query);
    if (entry === undefined) {
      entry = older.get(query);
      if (entry !== undefined) {
        older.delete(query);
        pending.set(query, entry);
      } else {
        if (pending.size >= Math.max(1, maxPending >> 1)) {
          older = pending;
          pending = new Map();
        }
        entry = { clients: [client], counts: [classIndex, 0, 0, 0] };
        pending.set(query, entry);
      }
    }
    if (!entry.clients.includes(client)) entry.clients.push(client);
    const { counts } = entry;
    let at = 0;
    while (at < counts.length && counts[at] !== classIndex) at += 4;
    if (at === counts.length) counts.push(classIndex, 0, 0, 0);
    counts[at + 1]! += 1;
    if (zero) counts[at + 2]! += 1;
    if (weak) counts[at + 3]! += 1;
    if (entry.clients.length >= minClients) {
      // k distinct clients asked it today: its counts so far, and from now on, go to the store.
      pending.delete(query);
      released.add(query);
      for (let from = 0; from < counts.length; from += 4) {
        const [searches, zeroResults, weakMatches] = counts.slice(from + 1, from + 4) as [
          number,
          number,
          number,
        ];
        buffer.addQuery(today, query, CLIENT_CLASSES[counts[from]!]!, { searches, zeroResults, weakMatches });
      }
    }
  };

  let lastRetentionDay = '';
  let flushing: Promise<void> = Promise.resolve();
  const flushOnce = async () => {
    const today = isoDay(now());
    if (lastRetentionDay !== today) {
      const deleted = await store.deleteBefore(retentionStartDay(today, retentionMonths));
      lastRetentionDay = today;
      if (deleted > 0) logger.info({ deleted, retentionMonths }, 'insight: old aggregates deleted');
    }
    if (buffer.empty) return;
    const written = buffer;
    buffer = new Counts();
    try {
      await store.write(written.batch());
    } catch (error) {
      // Counts are additive: put them back and try again at the next flush.
      buffer.merge(written);
      throw error;
    }
  };
  const flush = () => {
    flushing = flushing.then(flushOnce, flushOnce);
    return flushing;
  };

  let timer: NodeJS.Timeout | null = null;

  return {
    search(channel, text, summary, headers, clientAddress) {
      const today = currentDay();
      const { clientClass, agent } = classify(headers);
      const zero = summary.resultCount === 0;
      const weak = isWeakMatch(summary);
      buffer.addSearch(today, clientClass, channel, zero, weak);
      buffer.addRead(today, clientClass, 'ask', agent);
      const query = countedText(text);
      if (query !== '') countQuery(today, query, clientClass, clientAddress, zero, weak);
    },
    response(url, statusCode, contentType, headers) {
      if (statusCode >= 400) return;
      const queryAt = url.indexOf('?');
      const document = readershipDocument(queryAt === -1 ? url : url.slice(0, queryAt), contentType);
      // /ask is counted with its searches (including the fast path's, which never reach here).
      if (document === null || document === 'ask') return;
      const { clientClass, agent } = classify(headers);
      buffer.addRead(currentDay(), clientClass, document, agent);
    },
    flush,
    start() {
      if (timer) return;
      timer = setInterval(() => {
        flush().catch((error: unknown) =>
          logger.warn({ err: error }, 'insight: writing aggregates failed; retrying'),
        );
      }, flushIntervalMs);
      timer.unref();
    },
    async close() {
      if (timer) clearInterval(timer);
      timer = null;
      try {
        await flush();
      } catch (error) {
        // Shutting down must go on (the submissions still close): these counts are lost.
        logger.warn({ err: error }, 'insight: the last aggregates could not be written');
      } finally {
        await store.close();
      }
    },
    store,
    get pendingQueries() {
      return pending.size + older.size;
    },
  };
}
