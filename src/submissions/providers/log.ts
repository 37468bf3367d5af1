import type { Logger } from 'pino';
import type { DeliveryProvider } from './types.js';

/**
 * `log`: the operator chose the server log as the destination, so this is the one log line that
 * carries the submitted fields. It is written at `info` even when LOG_LEVEL is higher, because a
 * delivery that the level filter drops would be reported as delivered and then lost.
 */
export function createLogProvider(logger: Logger): DeliveryProvider {
  const destination = logger.child({ delivery: 'log' }, { level: 'info' });
  return {
    name: 'log',
    deliver: async (submission) => {
      destination.info(
        {
          submissionId: submission.id,
          kind: submission.kind,
          receivedAt: new Date(submission.receivedAtMs).toISOString(),
          submission: submission.fields,
        },
        submission.kind === 'lead' ? 'demo request received' : 'document suggestion received',
      );
      return { outcome: 'delivered' };
    },
    close: async () => undefined,
  };
}
