/**
 * One polite, bounded GET of the crawled origin: paced with every other request of the crawl,
 * redirects followed by hand (same origin only, counted, loops caught), a deadline over the whole
 * exchange body included, a byte cap on the (decompressed) body, and the validators of the last
 * good copy sent so that an unchanged resource costs a 304.
 */

/** How the requests of one crawl share the origin: at most `concurrency` at once, `delayMs` apart. */
export class Pacer {
  #nextStartMs = 0;
  constructor(
    private delayMs: number,
    readonly signal: AbortSignal,
  ) {}

  /** Raises the spacing (robots.txt's Crawl-delay); never lowers it below the configured one. */
  atLeast(delayMs: number): void {
    this.delayMs = Math.max(this.delayMs, delayMs);
  }

  get spacingMs(): number {
    return this.delayMs;
  }

  /**
   * Waits for this request's turn. The slot is reserved before waiting, so requests started by
   * several workers at once still start `delayMs` apart.
   */
  async turn(): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.#nextStartMs);
    this.#nextStartMs = at + this.delayMs;
    if (at > now) await sleep(at - now, this.signal);
    this.signal.throwIfAborted();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

export interface FetchLimits {
  userAgent: string;
  timeoutMs: number;
  maxRedirects: number;
}

export interface FetchRequest {
  url: string;
  /** Validators of the copy kept: sent as If-None-Match / If-Modified-Since. */
  etag?: string | null;
  lastModified?: string | null;
  maxBytes: number;
  accept: string;
  /** Content types accepted (lower case, without parameters); empty = any. */
  contentTypes: readonly string[];
}

export type FetchResult =
  | {
      kind: 'ok';
      /** Where the body came from after redirects. */
      url: string;
      body: Buffer;
      etag: string | null;
      lastModified: string | null;
    }
  | { kind: 'not-modified'; url: string }
  /** 404 or 410: the resource is gone. */
  | { kind: 'gone'; status: number }
  /** Not a resource of this site to keep: another origin, another content type. */
  | { kind: 'refused'; reason: string }
  /**
   * Failed this time (time-out, 5xx, a loop, too large…): kept as it was, tried again later.
   * `backOffMs` when the server asked the crawler to slow down (429, 503).
   */
  | { kind: 'failed'; reason: string; status?: number; backOffMs?: number };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** GETs `request.url` from `origin` only; never rejects (a crawl that is being closed excepted). */
export async function fetchBounded(
  request: FetchRequest,
  origin: string,
  limits: FetchLimits,
  pacer: Pacer,
): Promise<FetchResult> {
  const seen = new Set<string>();
  let url = request.url;
  for (let hop = 0; ; hop += 1) {
    seen.add(url);
    await pacer.turn();
    const signal = AbortSignal.any([AbortSignal.timeout(limits.timeoutMs), pacer.signal]);
    let response: Response;
    try {
      response = await fetch(url, {
        redirect: 'manual',
        signal,
        headers: headersFor(request, limits.userAgent),
      });
    } catch (error) {
      pacer.signal.throwIfAborted();
      return { kind: 'failed', reason: networkReason(error, limits.timeoutMs) };
    }
    const { status } = response;
    if (REDIRECTS.has(status)) {
      await discard(response);
      const location = response.headers.get('location');
      if (location === null) return { kind: 'failed', status, reason: `${status} without a Location` };
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return { kind: 'failed', status, reason: `${status} to an unreadable Location` };
      }
      next.hash = '';
      if (next.origin !== origin) return { kind: 'refused', reason: 'redirects to another origin' };
      if (seen.has(next.href)) return { kind: 'failed', status, reason: 'redirect loop' };
      if (hop >= limits.maxRedirects)
        return { kind: 'failed', status, reason: `more than ${limits.maxRedirects} redirects` };
      url = next.href;
      continue;
    }
    if (status === 304 && (request.etag || request.lastModified)) {
      await discard(response);
      return { kind: 'not-modified', url };
    }
    if (status === 404 || status === 410) {
      await discard(response);
      return { kind: 'gone', status };
    }
    if (status !== 200) {
      await discard(response);
      const backOff = status === 429 || status === 503;
      return {
        kind: 'failed',
        status,
        reason: `answered ${status}`,
        ...(backOff ? { backOffMs: retryAfterMs(response.headers.get('retry-after')) } : {}),
      };
    }
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (request.contentTypes.length > 0 && !request.contentTypes.includes(contentType)) {
      await discard(response);
      return { kind: 'refused', reason: `content type ${contentType || '(none)'} is not HTML` };
    }
    const body = await readCapped(response, request.maxBytes, limits.timeoutMs);
    if (pacer.signal.aborted) pacer.signal.throwIfAborted();
    if (typeof body === 'string') return { kind: 'failed', reason: body };
    return {
      kind: 'ok',
      url,
      body,
      etag: response.headers.get('etag'),
      lastModified: response.headers.get('last-modified'),
    };
  }
}

function headersFor(request: FetchRequest, userAgent: string): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': userAgent, accept: request.accept };
  if (request.etag) headers['if-none-match'] = request.etag;
  if (request.lastModified) headers['if-modified-since'] = request.lastModified;
  return headers;
}

/** The body, or why it was not read whole: larger than `maxBytes`, cut off, too slow. */
async function readCapped(response: Response, maxBytes: number, timeoutMs: number): Promise<Buffer | string> {
  const tooLarge = `larger than ${maxBytes} bytes`;
  const declared = Number(response.headers.get('content-length'));
  // A declared length is of the encoded body; the decoded one is counted below.
  if (response.headers.get('content-encoding') === null && declared > maxBytes) {
    await discard(response);
    return tooLarge;
  }
  if (response.body === null) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return tooLarge;
      }
      chunks.push(value);
    }
  } catch (error) {
    return `body not read whole: ${networkReason(error, timeoutMs)}`;
  }
  return Buffer.concat(chunks, size);
}

/** Ends a response whose body is not wanted, so its connection can be reused or closed. */
async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

/** Why a request failed, in words without the URL's query (it may hold a token). */
function networkReason(error: unknown, timeoutMs: number): string {
  const name = (error as Error)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return `no complete answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
}

/** Retry-After in seconds or as a date, in ms; 0 when absent or unreadable. */
function retryAfterMs(header: string | null): number {
  if (header === null) return 0;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? 0 : Math.max(0, at - Date.now());
}
