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

/** The answer's closing brace, after its content. */
export const ANSWER_TAIL = '}';

/**
 * The JSON of an answer in pieces, for a writer that sends them without copying the shared part:
 * the per-request head (`{"_meta":…,"content":`), the outcome's content bytes and the closing
 * brace. Their concatenation is `JSON.stringify(service.answer(query, requestId))`.
 */
export function answerParts(outcome: AskOutcome, query: AskQuery, requestId: string): AnswerParts {
  const meta = JSON.stringify(answerMeta(query, outcome.responseType, requestId));
  return { head: `{"_meta":${meta},"content":`, content: outcome.contentJson, tail: ANSWER_TAIL };
}

/** The whole answer as UTF-8 JSON bytes (the Fastify route sends these). */
export function answerBody(outcome: AskOutcome, query: AskQuery, requestId: string): Buffer {
  const { head, content, tail } = answerParts(outcome, query, requestId);
  return Buffer.concat([Buffer.from(head), content, Buffer.from(tail)]);
}

/**
 * One answer (query and outcome) with everything but its request id laid out once, for an answer
 * sent again and again: the head is `before + requestId + after`, and the whole answer is
 * `bytes + requestId.length` bytes long. Valid for request ids that JSON writes as they are, in
 * ASCII: what `requestIdOf` gives (a UUID, or a proxy's id of `[A-Za-z0-9._:@+=/-]`).
 */
export interface AnswerFrame {
  readonly outcome: AskOutcome;
  readonly before: string;
  readonly after: string;
  readonly bytes: number;
}

/** Stands for the request id while the head is laid out; JSON writes it as `"\u0000"`. */
const ID_MARK = '\u0000';
const QUOTED_MARK = JSON.stringify(ID_MARK);

/**
 * The answer's frame, cut from the head `answerParts` writes, so both always agree; null when the
 * cut is not certain (another member, such as a conversation id, shows the mark too).
 */
export function answerFrame(outcome: AskOutcome, query: AskQuery): AnswerFrame | null {
  const { head, content, tail } = answerParts(outcome, query, ID_MARK);
  const at = head.indexOf(QUOTED_MARK);
  if (at === -1 || head.includes(QUOTED_MARK, at + 1)) return null;
  const before = head.slice(0, at + 1);
  const after = head.slice(at + QUOTED_MARK.length - 1);
  const bytes = Buffer.byteLength(before) + Buffer.byteLength(after) + content.length + tail.length;
  return { outcome, before, after, bytes };
}
