/** Retry timing: exponential backoff with full jitter, and the peer's Retry-After as a floor. */

export interface BackoffPolicy {
  retryBaseMs: number;
  retryMaxMs: number;
}

/**
 * Delay before the attempt after `failedAttempts` failures: uniform in [0, min(max, base·2^(n-1))]
 * ("full jitter"), so retries from many submissions spread out instead of arriving together.
 * A Retry-After from the peer is honoured as the earliest time, capped at `retryMaxMs` so a
 * hostile or broken receiver cannot park a submission for years.
 */
export function retryDelayMs(
  policy: BackoffPolicy,
  failedAttempts: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(failedAttempts - 1, 0), 40);
  const ceiling = Math.min(policy.retryMaxMs, policy.retryBaseMs * 2 ** exponent);
  const jittered = Math.floor(random() * (ceiling + 1));
  if (retryAfterMs === null) return jittered;
  return Math.max(jittered, Math.min(retryAfterMs, policy.retryMaxMs));
}

/** Parses an HTTP Retry-After value (delta seconds or an HTTP date) into milliseconds from `nowMs`. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d{1,10}$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date always names its day or month; bare numbers like "-5" are not dates.
  const date = /[A-Za-z]/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - nowMs);
}
