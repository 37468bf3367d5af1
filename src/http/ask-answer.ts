import { LruCache } from '../cache/index.js';
import { CODINGS, compress, GzipSplice, type ContentCoding } from '../compression/index.js';
import { NLWEB_VERSION, type NlWebResponse } from '../contract/index.js';
import type { LimitDecision } from '../limits/index.js';
import { answerMeta, type AskOutcome, type AskQuery, type AskService } from '../nlweb/index.js';
import { codingFor } from './compression.js';
import { tooManySearches } from './rate-limit.js';
import { securityHeaders } from './security-headers.js';

/**
 * The one writer of `/ask` JSON answers: the fast path (ask-fast-path.ts) and the Fastify route
 * (routes/ask.ts) both turn a request into an answer here, head and bytes, so the two send the same
 * response by construction. The event stream is the route's alone (nlweb/sse.ts).
 */

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
const TAIL_BYTES = Buffer.from(ANSWER_TAIL);

/**
 * The JSON of an answer in pieces, for a writer that sends them without copying the shared part:
 * the per-request head (`{"_meta":…,"content":`), the outcome's content bytes and the closing
 * brace. Their concatenation is `JSON.stringify(service.answer(query, requestId))`.
 */
export function answerParts(outcome: AskOutcome, query: AskQuery, requestId: string): AnswerParts {
  const meta = JSON.stringify(answerMeta(query, outcome.responseType, requestId));
  return { head: `{"_meta":${meta},"content":`, content: outcome.contentJson, tail: ANSWER_TAIL };
}

/** The whole answer as UTF-8 JSON bytes. */
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

/** An error as /ask answers it: an NLWeb response whose text item says what to fix. */
export function errorAnswer(requestId: string, status: number, text: string): NlWebResponse {
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

/**
 * The gzip splices of popular answers kept at most (their deflated bytes and the identity content
 * they keep alive, counted together): ~300 answers of 20 KB.
 */
export const ANSWER_SPLICE_BYTES = 8 * 1024 * 1024;

/** Served coding order for a popular answer: its gzip is spliced (no compression per response). */
export const POPULAR_ORDER: readonly ContentCoding[] = ['gzip', 'br'];

/**
 * Coded /ask answers. An answer is `head + content + tail` where only the head (its `_meta`, with
 * the request id) differs per response. A popular answer (kept by the ask service) in gzip shares
 * one deflated `content + tail` between its responses (GzipSplice: a CRC of the head per
 * response); anything else is compressed whole for its response at the `fresh` level.
 */
export class AnswerCoder {
  readonly #splices: LruCache<AskOutcome, GzipSplice>;

  constructor(keptBytes = ANSWER_SPLICE_BYTES) {
    this.#splices = new LruCache(keptBytes, (splice) => splice.bytes + splice.identityBytes);
  }

  /** The coded answer's chunks, in order. */
  coded(outcome: AskOutcome, head: string, coding: ContentCoding, popular: boolean): Buffer[] {
    const headBytes = Buffer.from(head, 'utf8');
    if (coding === 'gzip' && popular && headBytes.length <= 0xffff) {
      const splice = this.#splices.getOrSet(
        outcome,
        () => new GzipSplice(Buffer.concat([outcome.contentJson, TAIL_BYTES])),
      );
      const { before, after } = splice.wrap(headBytes);
      return [before, splice.deflated, after];
    }
    return [compress(Buffer.concat([headBytes, outcome.contentJson, TAIL_BYTES]), coding, 'fresh')];
  }

  /** The bytes the kept splices count (their deflated and identity bytes). */
  get keptBytes(): number {
    return this.#splices.weight;
  }
}

/**
 * A written answer. `head` is the whole response head as Node's `writeHead` takes it
 * (`[name, value, …]`, the security headers and X-Request-Id included); it is the writer's own
 * array, filled in for this answer, so it is valid until the writer's next answer: use it at once.
 */
export interface AskAnswer {
  readonly status: number;
  readonly head: readonly string[];
  /** The body in order (strings in UTF-8); their lengths add up to the head's content-length. */
  readonly chunks: readonly (string | Buffer)[];
}

export interface AskAnswerWriterOptions {
  publicBaseUrl: string;
  /** COMPRESSION: answers go out in the coding the client accepts. */
  compression: boolean;
  coder?: AnswerCoder;
}

/** A flat `[name, value, …]` head with its per-answer slots, filled in once. */
class Head {
  readonly fields: string[];
  readonly requestIdSlot: number;
  readonly lengthSlot: number;
  readonly codingSlot: number;

  constructor(fixed: Readonly<Record<string, string>>, coded: boolean) {
    this.fields = Object.entries({
      ...fixed,
      ...(coded ? { 'content-encoding': '' } : {}),
      'x-request-id': '',
      'content-length': '',
    }).flat();
    this.lengthSlot = this.fields.length - 1;
    this.requestIdSlot = this.fields.length - 3;
    this.codingSlot = coded ? this.fields.length - 5 : -1;
  }

  fill(requestId: string, length: number, coding: string | null = null): string[] {
    this.fields[this.requestIdSlot] = requestId;
    this.fields[this.lengthSlot] = String(length);
    if (coding !== null) this.fields[this.codingSlot] = coding;
    return this.fields;
  }
}

/**
 * Writes `/ask`'s JSON answers and errors, heads and bytes. Heads are laid out once: Node validates
 * a flat list as it writes it, and the writer fills in the request id, length and coding of each.
 */
export class AskAnswerWriter {
  readonly coder: AnswerCoder;
  readonly #compression: boolean;
  readonly #plain: Head;
  readonly #coded: Head;
  readonly #errorFields: Readonly<Record<string, string>>;

  constructor(options: AskAnswerWriterOptions) {
    this.coder = options.coder ?? new AnswerCoder();
    this.#compression = options.compression;
    const security = securityHeaders(options.publicBaseUrl);
    this.#errorFields = { ...ANSWER_HEADERS, 'content-type': JSON_CONTENT_TYPE, ...security };
    const answerFields = {
      ...ANSWER_HEADERS,
      ...(options.compression ? { vary: CODED_ANSWER_VARY } : {}),
      'content-type': JSON_CONTENT_TYPE,
      ...security,
    };
    this.#plain = new Head(answerFields, false);
    this.#coded = new Head(answerFields, true);
  }

  /**
   * The 200 answer to `query` (its `outcome` from `ask`), in the coding `acceptEncoding` allows. A
   * popular answer (kept by the ask service) prefers gzip, spliced from bytes deflated once (see
   * AnswerCoder). `frame`, the answer laid out before, spares laying out its head again.
   */
  answer(
    ask: AskService,
    outcome: AskOutcome,
    query: AskQuery,
    requestId: string,
    acceptEncoding: string | string[] | undefined,
    frame: AnswerFrame | null = null,
  ): AskAnswer {
    let head: string;
    let length: number;
    if (frame !== null && frame.outcome === outcome) {
      head = frame.before + requestId + frame.after;
      length = frame.bytes + requestId.length;
    } else {
      head = answerParts(outcome, query, requestId).head;
      length = Buffer.byteLength(head) + outcome.contentJson.length + ANSWER_TAIL.length;
    }
    const compression = this.#compression;
    const popular = compression && acceptEncoding !== undefined && ask.isCached(query);
    const coding = codingFor(compression, acceptEncoding, length, popular ? POPULAR_ORDER : CODINGS);
    if (coding === null) {
      return {
        status: 200,
        head: this.#plain.fill(requestId, length),
        chunks: [head, outcome.contentJson, ANSWER_TAIL],
      };
    }
    const chunks = this.coder.coded(outcome, head, coding, popular);
    let codedLength = 0;
    for (const chunk of chunks) codedLength += chunk.length;
    return { status: 200, head: this.#coded.fill(requestId, codedLength, coding), chunks };
  }

  /** An error answer (400, 415, 429, 5xx): `text` says what to fix; `extra` are its own headers. */
  error(
    status: number,
    requestId: string,
    text: string,
    extra: Readonly<Record<string, string>> = {},
  ): AskAnswer {
    const body = JSON.stringify(errorAnswer(requestId, status, text));
    const head = Object.entries({
      ...this.#errorFields,
      ...extra,
      'x-request-id': requestId,
      'content-length': String(Buffer.byteLength(body)),
    }).flat();
    return { status, head, chunks: [body] };
  }

  /** The 429 of a search over RATE_LIMIT_ASK, with its RateLimit and Retry-After headers. */
  refused(refusal: LimitDecision, requestId: string): AskAnswer {
    return this.error(
      429,
      requestId,
      tooManySearches(refusal, '(see the Retry-After header) and ask again.'),
      refusal.headers,
    );
  }
}
