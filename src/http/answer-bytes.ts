import { answerMeta, type AskOutcome, type AskQuery } from '../nlweb/index.js';

/** An answer's JSON as `head + rest`: `head` holds the request's ids, `rest` is shared. */
export interface AnswerParts {
  head: string;
  rest: Buffer;
}

/**
 * The serialised content of each answer the ask service keeps, held as long as the service keeps
 * that answer (its cache drops the outcome, and the bytes go with it): a popular question is
 * serialised once, and sending a Buffer is about twice as fast as sending a string with non-ASCII
 * characters (answers quote with “ ” and join names with —).
 */
const restBytes = new WeakMap<AskOutcome, Buffer>();

/**
 * The JSON of an answer in two pieces, for a writer that sends them without copying the shared
 * part: the per-request head (`{"_meta":…,"content":`) and the cached rest (content and the
 * closing brace) as UTF-8. `head + rest` is `JSON.stringify(service.answer(query, requestId))`.
 */
export function answerParts(outcome: AskOutcome, query: AskQuery, requestId: string): AnswerParts {
  let rest = restBytes.get(outcome);
  if (rest === undefined) {
    rest = Buffer.from(`${JSON.stringify(outcome.content)}}`);
    restBytes.set(outcome, rest);
  }
  const meta = JSON.stringify(answerMeta(query, outcome.responseType, requestId));
  return { head: `{"_meta":${meta},"content":`, rest };
}

/** The whole answer as UTF-8 JSON bytes (the Fastify route sends these). */
export function answerBody(outcome: AskOutcome, query: AskQuery, requestId: string): Buffer {
  const { head, rest } = answerParts(outcome, query, requestId);
  return Buffer.concat([Buffer.from(head), rest]);
}
