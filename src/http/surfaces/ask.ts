import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { unsupportedMediaTypeBody, type ErrorBody, type NlWebResponse } from '../../contract/index.js';
import {
  EventStream,
  parseAskBody,
  parseAskQueryString,
  streamEvents,
  type ParsedAsk,
} from '../../nlweb/index.js';
import type { AppContext, SurfaceOptions } from '../context.js';
import {
  ANSWER_HEADERS,
  ASK_PREFLIGHT_HEADERS,
  type AskAnswer,
  type AskAnswerWriter,
} from '../ask-answer.js';
import { JSON_TYPE } from '../body-parsers.js';
import { acceptPrefersEventStream } from '../negotiation.js';
import { errorHandlerRendering } from '../errors.js';
import { askRefusal } from '../rate-limit.js';
import { securityHeaders } from '../security-headers.js';
import { clientAddress } from '../client-address.js';

/** Sends an answer of the writer the fast path shares (ask-answer.ts) through Fastify's reply. */
function sendAnswer(reply: FastifyReply, answer: AskAnswer) {
  reply.code(answer.status);
  const { head, chunks } = answer;
  for (let i = 0; i < head.length; i += 2) reply.header(head[i]!, head[i + 1]!);
  if (chunks.length === 1) return reply.send(chunks[0]);
  return reply.send(
    Buffer.concat(chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk))),
  );
}

/**
 * The /ask surface. Its errors, including the body parser's (invalid JSON, body too large, other
 * content types), are NLWeb responses. It has no not-found handler of its own: Fastify scopes
 * those by prefix, and /ask is one path, so a wrong method on it gets the app-wide 405.
 */
export async function registerAskSurface(app: FastifyInstance, options: SurfaceOptions): Promise<void> {
  const { context } = options;
  await app.register(async (surface) => {
    const { writer } = options;
    // An error as /ask answers it: an NLWeb response whose text item says what to fix.
    const sendError = (request: FastifyRequest, reply: FastifyReply, status: number, body: ErrorBody) =>
      sendAnswer(reply, writer.error(status, request.id, `${body.message} ${body.resolution}`));
    surface.setErrorHandler(
      errorHandlerRendering(sendError, {
        bodyLimitBytes: context.config.bodyLimitBytes,
        accepts: [JSON_TYPE],
      }),
    );
    registerAskRoutes(surface, context, writer, sendError);
  });
}

/** GET /ask, POST /ask and the CORS preflight. */
function registerAskRoutes(
  app: FastifyInstance,
  context: AppContext,
  writer: AskAnswerWriter,
  sendError: (request: FastifyRequest, reply: FastifyReply, status: number, body: ErrorBody) => unknown,
): void {
  const { config, insight } = context;
  const streamHeaders = { ...securityHeaders(config.publicBaseUrl), ...ANSWER_HEADERS };

  const respond = async (request: FastifyRequest, reply: FastifyReply, parsed: ParsedAsk) => {
    if (!parsed.ok) return sendAnswer(reply, writer.error(400, request.id, parsed.text));
    // The visitor's search text is never in the info log; at debug it is, for diagnosing answers.
    if ((request.log as Logger).isLevelEnabled('debug'))
      request.log.debug({ query: parsed.query.text }, 'ask query');
    const refusal = await askRefusal(context, request);
    if (refusal !== null) return sendAnswer(reply, writer.refused(refusal, request.id));

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
    counted();
    return sendAnswer(
      reply,
      writer.answer(ask, outcome, query, request.id, request.headers['accept-encoding']),
    );
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
