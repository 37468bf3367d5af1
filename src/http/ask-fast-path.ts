import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { internalErrorBody } from '../contract/index.js';
import type { LimitDecision, RateLimits } from '../limits/index.js';
import type { Metrics } from '../metrics/index.js';
import {
  parseAskQueryString,
  type AnswerSummary,
  type AskQuery,
  type AskService,
  type ParsedAsk,
} from '../nlweb/index.js';
import { answerFrame, type AnswerFrame, type AskAnswer, type AskAnswerWriter } from './ask-answer.js';
import { clientAddressOf } from './client-address.js';
import { createEndOfTurn } from './end-responses-per-turn.js';
import { parseQueryString } from './query-string.js';
import { requestIdOf } from './request-id.js';
import { acceptPrefersEventStream } from './negotiation.js';

export interface AskFastPathOptions {
  /** The ask service serving now (a content reload replaces it). */
  ask: () => AskService;
  logger: Logger;
  /** True once the server is shutting down: Fastify then answers 503 itself. */
  isClosing: () => boolean;
  /** Called once an answer has been sent (the site owner's insight counts it); `clientAddress` is the limits' (TRUST_PROXY_HOPS applied). */
  onAnswered?: (req: IncomingMessage, query: AskQuery, summary: AnswerSummary, clientAddress: string) => void;
  /** Counted like every request, under the route `/ask`. */
  metrics: Metrics;
  limits: RateLimits;
  /** TRUST_PROXY_HOPS: the client address is found as Fastify finds `request.ip`. */
  trustProxyHops: number;
  /** The writer the /ask route uses too: the same heads, the same bytes. */
  writer: AskAnswerWriter;
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
 * turn (see end-responses-per-turn.ts). Its answers, a refusal over RATE_LIMIT_ASK included, come from the
 * route's own writer (ask-answer.ts), with the same parser; anything else — HEAD, streaming, an
 * invalid query, an error before sending — returns false and goes through Fastify unchanged.
 */
export function createAskFastPath(
  options: AskFastPathOptions,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { ask, logger, isClosing, limits, trustProxyHops, onAnswered, writer } = options;
  const observeAnswer = options.metrics.requestObserver('GET', '/ask', 200);
  const observeRefusal = options.metrics.requestObserver('GET', '/ask', 429);
  // One child logger per status the fast path answers with, its fixed fields bound once (pino
  // serialises them once, not on every line). The request line holds no headers, so it skips the
  // logger's redaction, a quarter of its cost.
  const requestLog = (statusCode: number): Logger =>
    logger.child(
      { req: { method: 'GET', url: '/ask' }, res: { statusCode }, fastPath: true },
      { redact: { paths: [] } },
    );
  const answeredLog = requestLog(200);
  const refusedLog = requestLog(429);
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

  /** Sends a written answer: corked, its head and chunks leave in one writev when the turn ends. */
  const send = (
    res: ServerResponse,
    answer: AskAnswer,
    requestId: string,
    started: number,
    refused: boolean,
  ): void => {
    res.writeHead(answer.status, answer.head as string[]);
    res.cork();
    const { chunks } = answer;
    for (let i = 0; i < chunks.length - 1; i++) res.write(chunks[i]!);
    endAtTurnEnd(res, chunks[chunks.length - 1]!, (failure) => {
      if (failure !== null) {
        logger.error({ err: failure, requestId }, '/ask fast path failed while sending');
        return;
      }
      const responseTime = performance.now() - started;
      (refused ? observeRefusal : observeAnswer)(responseTime / 1000);
      // The same line as Fastify's requests get (app.ts), marked with the path that answered.
      const log = refused ? refusedLog : answeredLog;
      if (log.isLevelEnabled('info')) log.info({ requestId, responseTime }, 'request completed');
    });
  };

  const answer = (
    req: IncomingMessage,
    res: ServerResponse,
    known: KnownUrl,
    clientAddress: string,
    requestId: string,
    started: number,
  ): void => {
    const service = ask();
    // The asker's Accept-Language can prefer pages in their language (the same query object when not).
    const query = service.withAcceptLanguage(known.parsed.query, req.headers['accept-language']);
    const outcome = service.outcome(query);
    // The head is laid out once per answer asked again (a reload or eviction brings a new outcome).
    let frame = known.frame;
    if (frame === null || frame.outcome !== outcome) {
      frame = answerFrame(outcome, query);
      if (known.askedBefore) known.frame = frame;
      known.askedBefore = true;
    }
    send(
      res,
      writer.answer(service, outcome, query, requestId, req.headers['accept-encoding'], frame),
      requestId,
      started,
      false,
    );
    onAnswered?.(req, query, outcome.summary, clientAddress);
    if (logger.isLevelEnabled('debug')) logger.debug({ requestId, query: query.text }, 'ask query');
  };

  /** The answer once a verdict waiting for the shared count comes: the request is this path's now. */
  const answerLater = (
    req: IncomingMessage,
    res: ServerResponse,
    verdict: Promise<LimitDecision | null>,
    known: KnownUrl,
    clientAddress: string,
    requestId: string,
    started: number,
  ): void => {
    verdict
      .then((refusal) => {
        if (refusal === null) answer(req, res, known, clientAddress, requestId, started);
        else send(res, writer.refused(refusal, requestId), requestId, started, true);
      })
      .catch((error: unknown) => {
        logger.error({ err: error, requestId }, '/ask fast path failed');
        if (res.headersSent) return void res.destroy();
        const failed = internalErrorBody(requestId);
        send(
          res,
          writer.error(500, requestId, `${failed.message} ${failed.resolution}`),
          requestId,
          started,
          true,
        );
      });
  };

  return (req, res) => {
    const url = req.url;
    if (req.method !== 'GET' || url === undefined || !url.startsWith('/ask') || isClosing()) return false;
    if (url.length > 4 && url.charCodeAt(4) !== 63 /* ? */) return false;
    const started = performance.now();
    try {
      const known = parse(url);
      if (known === null) return false;
      if (known.parsed.delivery.streaming ?? acceptPrefersEventStream(req.headers.accept)) return false;
      const clientAddress =
        limits.limitsAsk || onAnswered !== undefined ? clientAddressOf(req, trustProxyHops) : '';
      const verdict = limits.limitsAsk ? limits.refuseAsk(clientAddress) : null;
      const requestId = requestIdOf(req, trustProxyHops);
      if (verdict === null) answer(req, res, known, clientAddress, requestId, started);
      else if (verdict instanceof Promise)
        answerLater(req, res, verdict, known, clientAddress, requestId, started);
      else send(res, writer.refused(verdict, requestId), requestId, started, true);
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
