import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { RateLimits } from '../limits/index.js';
import type { Metrics } from '../metrics/index.js';
import {
  parseAskQueryString,
  type AnswerSummary,
  type AskQuery,
  type AskService,
  type ParsedAsk,
} from '../nlweb/index.js';
import { ANSWER_TAIL, answerFrame, answerParts, type AnswerFrame } from './answer-bytes.js';
import { clientAddressOf } from './client-address.js';
import { createEndOfTurn } from './end-of-turn.js';
import { parseQueryString } from './query-string.js';
import { handOverAskRefusal } from './rate-limit.js';
import { requestCompletedLogger } from './request-completed-line.js';
import { requestIdOf } from './request-id.js';
import { ANSWER_HEADERS, CODED_ANSWER_VARY, JSON_CONTENT_TYPE } from './routes/ask.js';
import { POPULAR_ORDER, type AnswerCoder } from './answer-coding.js';
import { codingFor } from './compression.js';
import { CODINGS } from '../compression/index.js';
import { securityHeaders } from './security-headers.js';
import { acceptPrefersEventStream } from './negotiation.js';

export interface AskFastPathOptions {
  /** The ask service serving now (a content reload replaces it). */
  ask: () => AskService;
  logger: Logger;
  publicBaseUrl: string;
  /** True once the server is shutting down: Fastify then answers 503 itself. */
  isClosing: () => boolean;
  /** Called once an answer has been sent (the site owner's insight counts it); `clientAddress` is the limits' (TRUST_PROXY_HOPS applied). */
  onAnswered?: (req: IncomingMessage, query: AskQuery, summary: AnswerSummary, clientAddress: string) => void;
  /** Counted like every request, under the route `/ask`. */
  metrics: Metrics;
  limits: RateLimits;
  /** TRUST_PROXY_HOPS: the client address is found as Fastify finds `request.ip`. */
  trustProxyHops: number;
  /** COMPRESSION: answers go out in the coding the client accepts. */
  compression: boolean;
  /** The coder the /ask route uses too (the same splices, the same bytes). */
  answerCoder: AnswerCoder;
}

/** Parsed query strings kept by URL: popular questions arrive as the same URL again and again. */
export const PARSED_URL_MEMO_SIZE = 1000;

type ValidAsk = Extract<ParsedAsk, { ok: true }>;

/**
 * A URL's parse, and the frame of the answer last sent for it (see AnswerFrame), kept once the URL
 * is asked again: the frame holds the answer, and a memo of a thousand one-off questions' answers
 * (~20 KB each) would keep them alive after the ask service let them go.
 */
interface KnownUrl {
  parsed: ValidAsk;
  frame: AnswerFrame | null;
  askedBefore: boolean;
}

/**
 * Answers the hottest request of the site, a valid `GET /ask` that wants JSON, before the
 * framework's per-request pipeline (routing, hooks, child logger), which alone costs about 40 % of a
 * bare node:http server's throughput, and ends its answers together at the end of the event loop's
 * turn (see end-of-turn.ts). It sends exactly what the Fastify route sends (same parser,
 * same headers, the same answer bytes from the ask service's cache); anything else — HEAD,
 * streaming, an invalid query, an error — returns false and goes through Fastify unchanged. A test
 * compares the two paths response by response.
 */
export function createAskFastPath(
  options: AskFastPathOptions,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { ask, logger, isClosing, limits, trustProxyHops, onAnswered, compression, answerCoder } = options;
  // A flat [name, value, …] list, filled in once: Node validates it as it writes the head, and the
  // last slot takes each response's length. writeHead does not keep the array.
  const headers = Object.entries({
    ...ANSWER_HEADERS,
    ...(compression ? { vary: CODED_ANSWER_VARY } : {}),
    'content-type': JSON_CONTENT_TYPE,
    ...securityHeaders(options.publicBaseUrl),
    'x-request-id': '',
    'content-length': '',
  }).flat();
  const lengthSlot = headers.length - 1;
  const requestIdSlot = headers.length - 3;
  // The same for a coded answer, with its coding in the slot before the request id.
  const codedHeaders = [
    ...headers.slice(0, requestIdSlot - 1),
    'content-encoding',
    '',
    ...headers.slice(requestIdSlot - 1),
  ];
  const codingSlot = codedHeaders.indexOf('content-encoding') + 1;
  const observeAnswer = options.metrics.requestObserver('GET', '/ask', 200);
  // The request line holds no headers, so it skips the logger's redaction (a quarter of its cost);
  // its fixed fields are bound once, so pino serialises them once, not on every line (~1.3 µs).
  const requestLog = logger.child(
    { req: { method: 'GET', url: '/ask' }, res: { statusCode: 200 }, fastPath: true },
    { redact: { paths: [] } },
  );
  const logRequestCompleted = requestCompletedLogger(requestLog);
  // A plain map emptied when full: a hit is one lookup (an LRU's move-to-end costs more than the
  // parse it saves on a miss), and popular URLs are back in it at once.
  const knownUrls = new Map<string, KnownUrl>();
  const endAtTurnEnd = createEndOfTurn((error) =>
    logger.error({ err: error }, '/ask fast path failed after sending'),
  );
  const parse = (url: string): KnownUrl | null => {
    let known = knownUrls.get(url);
    if (known) return known;
    const parsed = parseAskQueryString(parseQueryString(url.length > 5 ? url.slice(5) : ''));
    if (!parsed.ok) return null;
    if (knownUrls.size >= PARSED_URL_MEMO_SIZE) knownUrls.clear();
    knownUrls.set(url, (known = { parsed, frame: null, askedBefore: false }));
    return known;
  };

  return (req, res) => {
    const url = req.url;
    if (req.method !== 'GET' || url === undefined || !url.startsWith('/ask') || isClosing()) return false;
    if (url.length > 4 && url.charCodeAt(4) !== 63 /* ? */) return false;
    const started = performance.now();
    try {
      const known = parse(url);
      if (known === null) return false;
      const { parsed } = known;
      if (parsed.delivery.streaming ?? acceptPrefersEventStream(req.headers.accept)) return false;
      const clientAddress =
        limits.limitsAsk || onAnswered !== undefined ? clientAddressOf(req, trustProxyHops) : '';
      const refusal = limits.limitsAsk ? limits.refuseAsk(clientAddress) : null;
      if (refusal !== null) {
        // The route answers the 429 (one writer of that answer), or waits for a verdict to come;
        // the verdict goes with the request.
        handOverAskRefusal(req, refusal);
        return false;
      }
      const requestId = requestIdOf(req, trustProxyHops);
      const whenSent = (failure: unknown) => {
        if (failure !== null) {
          logger.error({ err: failure, requestId }, '/ask fast path failed while sending');
          return;
        }
        const responseTime = performance.now() - started;
        observeAnswer(responseTime / 1000);
        // The same line as Fastify's requests get (app.ts), marked with the path that answered.
        if (requestLog.isLevelEnabled('info')) logRequestCompleted(requestId, responseTime);
      };
      const service = ask();
      const query = service.withAcceptLanguage(parsed.query, req.headers['accept-language']);
      const outcome = service.outcome(query);
      // The head and length are laid out once per answer (a reload or eviction brings a new outcome).
      let frame = known.frame;
      if (frame === null || frame.outcome !== outcome) {
        frame = answerFrame(outcome, query);
        if (known.askedBefore) known.frame = frame;
        known.askedBefore = true;
      }
      let head: string;
      let length: number;
      if (frame !== null) {
        head = frame.before + requestId + frame.after;
        length = frame.bytes + requestId.length;
      } else {
        const parts = answerParts(outcome, query, requestId);
        head = parts.head;
        length = Buffer.byteLength(head) + parts.content.length + parts.tail.length;
      }
      const acceptEncoding = req.headers['accept-encoding'];
      // A popular answer prefers gzip, spliced from bytes deflated once (see answer-coding.ts).
      const popular = compression && acceptEncoding !== undefined && service.isCached(query);
      const coding = codingFor(compression, acceptEncoding, length, popular ? POPULAR_ORDER : CODINGS);
      if (coding !== null) {
        const chunks = answerCoder.coded(outcome, head, coding, popular);
        let codedLength = 0;
        for (const chunk of chunks) codedLength += chunk.length;
        codedHeaders[codingSlot] = coding;
        codedHeaders[codingSlot + 2] = requestId;
        codedHeaders[codingSlot + 4] = String(codedLength);
        res.writeHead(200, codedHeaders);
        res.cork();
        for (let i = 0; i < chunks.length - 1; i++) res.write(chunks[i]);
        endAtTurnEnd(res, chunks[chunks.length - 1]!, whenSent);
      } else {
        headers[requestIdSlot] = requestId;
        headers[lengthSlot] = String(length);
        res.writeHead(200, headers);
        // Corked, the head (a string Node joins to the response head), the shared bytes of the
        // answer and its closing brace leave in one writev, with no per-request copy of the answer,
        // when the turn ends with the other answers of this turn (end-of-turn.ts).
        res.cork();
        res.write(head);
        res.write(outcome.contentJson);
        endAtTurnEnd(res, ANSWER_TAIL, whenSent);
      }
      onAnswered?.(req, query, outcome.summary, clientAddress);
      if (logger.isLevelEnabled('debug')) logger.debug({ requestId, query: parsed.query.text }, 'ask query');
      return true;
    } catch (error) {
      // Nothing was sent: Fastify takes the request and answers it (or its error) as usual.
      if (!res.headersSent) {
        logger.warn({ err: error }, '/ask fast path failed; answering through the route');
        return false;
      }
      logger.error({ err: error }, '/ask fast path failed while sending');
      res.destroy();
      return true;
    }
  };
}
