import type { QuarantineReason } from './types.js';

export interface FormTrapSignals {
  /** The honeypot field was filled. */
  honeypotFilled: boolean;
  /** Milliseconds the form was open before it was sent; null when the form did not say. */
  fillMs: number | null;
}

/**
 * Why a form submission goes to quarantine, or null. Only the site's forms send these signals: a
 * direct API call (an agent, a server) has neither and is never quarantined.
 */
export function quarantineReasonOf(signals: FormTrapSignals, minFillMs: number): QuarantineReason | null {
  if (signals.honeypotFilled) return 'honeypot';
  if (signals.fillMs !== null && minFillMs > 0 && signals.fillMs < minFillMs) return 'too-fast';
  return null;
}
