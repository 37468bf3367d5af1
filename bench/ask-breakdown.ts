/**
 * What one never-asked GET /ask costs on the server, by step, measured in-process on the same
 * questions (mean microseconds per request):
 *
 * - parse: the query string → a validated query (parseQueryString + parseAskQueryString);
 * - rank: the ranking the service asks the index for (searchWithPlan for as many passages as the
 *   service first asks for, passagesFirstAskedFor);
 * - pages + snippets: the rest of building the answer (one result per page, copies, names,
 *   snippets of up to three sections per page, the summary): the whole answer (answer cache off)
 *   minus rank, serialise and encode;
 * - serialise: JSON.stringify of the answer's content (done once per answer, then cached as bytes);
 * - encode: those JSON characters as UTF-8 bytes (utf8Bytes, as the service encodes them);
 * - write: writeHead + end of the answer bytes on a real keep-alive socket (node:http), timed in
 *   the request handler.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MAX_RESULTS } from '../src/contract/nlweb.js';
import type { Site } from '../src/content/index.js';
import { answerBody } from '../src/http/ask-answer.js';
import { parseQueryString } from '../src/http/query-string.js';
import { contentOf, createAskService, parseAskQueryString } from '../src/nlweb/index.js';
import { passagesFirstAskedFor, searchWithPlan } from '../src/search/index.js';
import { utf8Bytes } from '../src/unicode/index.js';

export interface AskBreakdown {
  site: string;
  questions: number;
  /** Mean microseconds per request. */
  parseUs: number;
  rankUs: number;
  snippetsUs: number;
  serialiseUs: number;
  encodeUs: number;
  writeUs: number;
  /** parse + the whole answer + write. */
  totalUs: number;
  answerBytes: number;
}

const mean = (total: number, n: number) => (total / n) * 1000;

export async function measureAskBreakdown(
  label: string,
  site: Site,
  questions: string[],
): Promise<AskBreakdown> {
  const n = questions.length;
  const query = (text: string) => ({ text, maxResults: DEFAULT_MAX_RESULTS, conversationId: null });
  const ask = createAskService(site, 'http://127.0.0.1:3000', { cacheSize: 0 });
  // Warm up the code paths (and the bounded cache of analysed passages, as in a running server).
  const body = (text: string) => answerBody(ask.outcome(query(text)), query(text), 'r');
  for (const text of questions.slice(0, 200)) body(text);

  const urls = questions.map((text) => `query=${encodeURIComponent(text)}`);
  let t = performance.now();
  for (const url of urls) parseAskQueryString(parseQueryString(url));
  const parseMs = performance.now() - t;

  t = performance.now();
  const passages = passagesFirstAskedFor(DEFAULT_MAX_RESULTS);
  for (const text of questions) searchWithPlan(ask.index, text, { limit: passages });
  const rankMs = performance.now() - t;

  // The service serialises and encodes each new answer's content once (AskOutcome.contentJson):
  // those two steps are timed here on the same items, one answer at a time, so that thousands of
  // answers held at once do not put their garbage collection into the figures.
  let serialiseMs = 0;
  let encodeMs = 0;
  for (const text of questions) {
    const content = contentOf(ask.outcome(query(text)));
    let started = performance.now();
    const json = JSON.stringify(content);
    serialiseMs += performance.now() - started;
    started = performance.now();
    utf8Bytes(json);
    encodeMs += performance.now() - started;
  }

  let bytes = 0;
  const bodies: Buffer[] = [];
  t = performance.now();
  for (const text of questions) bodies.push(body(text));
  const answerMs = performance.now() - t;
  for (const body of bodies) bytes += body.length;

  const writeMs = await measureWrites(bodies);
  return {
    site: label,
    questions: n,
    parseUs: mean(parseMs, n),
    rankUs: mean(rankMs, n),
    snippetsUs: mean(Math.max(0, answerMs - rankMs - serialiseMs - encodeMs), n),
    serialiseUs: mean(serialiseMs, n),
    encodeUs: mean(encodeMs, n),
    writeUs: mean(writeMs, n),
    totalUs: mean(parseMs + answerMs + writeMs, n),
    answerBytes: bytes / n,
  };
}

/** Sends each body once over one keep-alive connection; returns the handler's writing time in total (ms). */
async function measureWrites(bodies: Buffer[]): Promise<number> {
  let writing = 0;
  let next = 0;
  const server = createServer((_req, res) => {
    const body = bodies[next++ % bodies.length]!;
    const t = performance.now();
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
    writing += performance.now() - t;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    for (let i = 0; i < bodies.length; i++) await (await fetch(`http://127.0.0.1:${port}/ask`)).arrayBuffer();
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  return writing;
}
