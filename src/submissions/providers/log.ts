import type { Logger } from 'pino';
import type { AttemptResult, DeliveryProvider, FormLookup } from './types.js';

/**
 * `log`: the operator chose the server log as the destination, so this is the one log line that
 * carries the submitted fields. It is written at `info` even when LOG_LEVEL is higher, because a
 * delivery that the level filter drops would be reported as delivered and then lost. The log is
 * asynchronous, so the attempt waits (within its time cap) until the line has left the process:
 * a line still in memory, dropped, or failed (a full disk) is not a delivery and is retried.
 */
export function createLogProvider(logger: Logger, formOf?: FormLookup): DeliveryProvider {
  const destination = logger.child({ delivery: 'log' }, { level: 'info' });
  return {
    name: 'log',
    deliver: async (submission, _attempt, signal) => {
      // A configured form's line says which form it came from, in the words its e-mail is titled with.
      const form = formOf?.(submission);
      destination.info(
        {
          submissionId: submission.id,
          kind: submission.kind,
          ...(form ? { form: form.id } : {}),
          receivedAt: new Date(submission.receivedAtMs).toISOString(),
          submission: submission.fields,
        },
        form
          ? form.words.emailTitle
          : submission.kind === 'lead'
            ? 'demo request received'
            : 'document suggestion received',
      );
      return written(logger, signal);
    },
    close: async () => undefined,
  };
}

/** pino's `flush` asks the destination; a stream without one has taken the line synchronously. */
function written(logger: Logger, signal: AbortSignal): Promise<AttemptResult> {
  return new Promise((resolve) => {
    const timedOut = () => resolve({ outcome: 'retry', errorClass: 'log_timeout', retryAfterMs: null });
    if (signal.aborted) return timedOut();
    signal.addEventListener('abort', timedOut, { once: true });
    logger.flush((error) => {
      signal.removeEventListener('abort', timedOut);
      if (!error) return resolve({ outcome: 'delivered' });
      const code = (error as { code?: unknown }).code;
      resolve({
        outcome: 'retry',
        errorClass: `log_${typeof code === 'string' && /^[A-Za-z_]{1,30}$/.test(code) ? code.toLowerCase() : 'write_error'}`,
        retryAfterMs: null,
      });
    });
  });
}
