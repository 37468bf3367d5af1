import { answerMeta, type AskOutcome, type AskQuery } from '../nlweb/index.js';

/**
 * An answer's JSON as `head + content + tail`: `head` holds the request's ids, `content` is the
 * outcome's own bytes (shared by every request for that answer) and `tail` closes the object.
 */
export interface AnswerParts {
  head: string;
  content: Buffer;
  tail: string;
}

const TAIL = '}';

/**
 * The JSON of an answer in pieces, for a writer that sends them without copying the shared part:
 * the per-request head (`{"_meta":…,"content":`), the outcome's content bytes and the closing
 * brace. Their concatenation is `JSON.stringify(service.answer(query, requestId))`.
 */
export function answerParts(outcome: AskOutcome, query: AskQuery, requestId: string): AnswerParts {
  const meta = JSON.stringify(answerMeta(query, outcome.responseType, requestId));
  return { head: `{"_meta":${meta},"content":`, content: outcome.contentJson, tail: TAIL };
}

/** The whole answer as UTF-8 JSON bytes (the Fastify route sends these). */
export function answerBody(outcome: AskOutcome, query: AskQuery, requestId: string): Buffer {
  const { head, content, tail } = answerParts(outcome, query, requestId);
  return Buffer.concat([Buffer.from(head), content, Buffer.from(tail)]);
}
