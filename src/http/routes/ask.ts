import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import {
  NLWEB_VERSION,
  unsupportedMediaTypeBody,
  type ErrorBody,
  type NlWebResponse,
} from '../../contract/index.js';
import {
  EventStream,
  parseAskBody,
  parseAskQueryString,
  streamEvents,
  type ParsedAsk,
} from '../../nlweb/index.js';
import type { AppContext, SurfaceOptions } from '../context.js';
import { answerParts } from '../answer-bytes.js';
import { POPULAR_ORDER, type AnswerCoder } from '../answer-coding.js';
import { codingFor } from '../compression.js';
import { CODINGS } from '../../compression/index.js';
import { JSON_TYPE } from '../body-parsers.js';
import { acceptPrefersEventStream } from '../negotiation.js';
import { errorHandlerRendering } from '../errors.js';
import { askRefusal, tooManySearches } from '../rate-limit.js';
import { securityHeaders } from '../security-headers.js';
import { clientAddress } from '../client-address.js';

/** /ask is read-only and public: any origin may read it, without credentials. */
export const ASK_CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
};

export const ASK_PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  ...ASK_CORS_HEADERS,
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Accept',
  'access-control-max-age': '86400',
};

/**
 * Headers of every /ask answer. The Accept header can select streaming, and Accept-Language the
 * pages preferred, hence Vary.
 */
export const ANSWER_HEADERS: Readonly<Record<string, string>> = {
  ...ASK_CORS_HEADERS,
  vary: 'Accept, Accept-Language',
  // Every answer carries its own request_id.
  'cache-control': 'no-store',
};

/** Vary of a JSON answer when compression is on: it may go out in brotli or gzip. */
export const CODED_ANSWER_VARY = 'Accept, Accept-Language, Accept-Encoding';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

function errorAnswer(requestId: string, status: number, text: string): NlWebResponse {
  return {
    // A 4xx asks the caller to send something else; a 5xx is a (failed) answer.
    _meta: {
      response_type: status < 500 ? 'Elicitation' : 'Answer',
      version: NLWEB_VERSION,
      request_id: requestId,
    },
    content: [{ type: 'text', text }],
  };
}

/** An error as /ask answers it: an NLWeb response whose text item says what to fix. */
function sendError(request: FastifyRequest, reply: FastifyReply, status: number, body: ErrorBody) {
  return reply
    .code(status)
    .headers(ANSWER_HEADERS)
    .type(JSON_CONTENT_TYPE)
    .send(errorAnswer(request.id, status, `${body.message} ${body.resolution}`));
}

/**
 * The /ask surface. Its errors, including the body parser's (invalid JSON, body too large, other
 * content types), are NLWeb responses. It has no not-found handler of its own: Fastify scopes
 * those by prefix, and /ask is one path, so a wrong method on it gets the app-wide 405.
 */
export async function registerAskSurface(app: FastifyInstance, options: SurfaceOptions): Promise<void> {
  const { context } = options;
  await app.register(async (surface) => {
    surface.setErrorHandler(
      errorHandlerRendering(sendError, {
        bodyLimitBytes: context.config.bodyLimitBytes,
        accepts: [JSON_TYPE],
      }),
    );
    registerAskRoutes(surface, context, options.answerCoder);
  });
}

/** GET /ask, POST /ask and the CORS preflight. */
function registerAskRoutes(app: FastifyInstance, context: AppContext, answerCoder: AnswerCoder): void {
  const { config, insight } = context;
  const streamHeaders = { ...securityHeaders(config.publicBaseUrl), ...ANSWER_HEADERS };

  const respond = async (request: FastifyRequest, reply: FastifyReply, parsed: ParsedAsk) => {
    if (!parsed.ok)
      return reply
        .code(400)
        .headers(ANSWER_HEADERS)
        .type(JSON_CONTENT_TYPE)
        .send(errorAnswer(request.id, 400, parsed.text));
    // The visitor's search text is never in the info log; at debug it is, for diagnosing answers.
    if ((request.log as Logger).isLevelEnabled('debug'))
      request.log.debug({ query: parsed.query.text }, 'ask query');
    const refusal = await askRefusal(context, request);
    if (refusal !== null) {
      return reply
        .code(429)
        .headers(ANSWER_HEADERS)
        .headers(refusal.headers)
        .type(JSON_CONTENT_TYPE)
        .send(
          errorAnswer(
            request.id,
            429,
            tooManySearches(refusal, '(see the Retry-After header) and ask again.'),
          ),
        );
    }

    // Read once: a content reload may replace the service while this request is answered.
    const ask = context.ask;
    const query = ask.withAcceptLanguage(parsed.query, request.headers['accept-language']);
    const streaming = parsed.delivery.streaming ?? acceptPrefersEventStream(request.headers.accept);
    // Counted once answered (the summary comes from the answer just cached); HEAD asks nothing.
    const counted = () => {
      if (insight && request.method !== 'HEAD')
        insight.search(
          streaming ? 'stream' : request.method === 'POST' ? 'post' : 'get',
          query.text,
          ask.summary(query),
          request.headers,
          clientAddress(request),
        );
    };
    if (streaming && request.method !== 'HEAD') {
      const release = ask.streams.tryAcquire(clientAddress(request));
      if (release) {
        const answer = ask.answer(query, request.id);
        counted();
        return streamAnswer(request, reply, answer, release);
      }
      // Over the stream limits the same answer still goes out, as one JSON body.
      request.log.warn({ active: ask.streams.active }, 'stream limit reached: answering with JSON');
    }
    const outcome = ask.outcome(query);
    const { head, content, tail } = answerParts(outcome, query, request.id);
    counted();
    reply.code(200).headers(ANSWER_HEADERS).type(JSON_CONTENT_TYPE);
    if (config.compression) reply.header('vary', CODED_ANSWER_VARY);
    // A popular answer prefers gzip, spliced from bytes deflated once (see answer-coding.ts).
    const popular = ask.isCached(query);
    const length = Buffer.byteLength(head) + content.length + tail.length;
    const coding = codingFor(
      config.compression,
      request.headers['accept-encoding'],
      length,
      popular ? POPULAR_ORDER : CODINGS,
    );
    if (coding === null) return reply.send(Buffer.concat([Buffer.from(head), content, Buffer.from(tail)]));
    reply.header('content-encoding', coding);
    return reply.send(Buffer.concat(answerCoder.coded(outcome, head, coding, popular)));
  };

  const streamAnswer = async (
    request: FastifyRequest,
    reply: FastifyReply,
    answer: NlWebResponse,
    release: () => void,
  ) => {
    const { ask } = context;
    // Hijacked responses skip onSend hooks: EventStream writes the security and CORS headers itself.
    reply.hijack();
    const stream = new EventStream(reply.raw, {
      heartbeatMs: ask.streaming.heartbeatMs,
      drainTimeoutMs: ask.streaming.drainTimeoutMs,
      headers: { ...streamHeaders, 'x-request-id': request.id },
    });
    stream.onClosed(release);
    try {
      for (const event of streamEvents(answer, ask.streaming.batchSize)) {
        if (!(await stream.send(event))) {
          request.log.info('client closed the event stream early');
          return;
        }
      }
      stream.end();
    } catch (error) {
      request.log.error({ err: error }, 'event stream failed');
      reply.raw.destroy();
    }
  };

  app.options('/ask', async (_request, reply) => reply.code(204).headers(ASK_PREFLIGHT_HEADERS).send());

  app.get('/ask', async (request, reply) =>
    respond(request, reply, parseAskQueryString(request.query as Record<string, string | string[]>)),
  );

  app.post('/ask', async (request, reply) => {
    const contentType = request.headers['content-type'];
    if (contentType?.split(';')[0]!.trim().toLowerCase() !== JSON_TYPE)
      return sendError(request, reply, 400, unsupportedMediaTypeBody(contentType, [JSON_TYPE]));
    return respond(request, reply, parseAskBody(request.body));
  });
}
