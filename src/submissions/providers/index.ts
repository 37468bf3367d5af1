import type { Logger } from 'pino';
import type { Config } from '../../config/index.js';
import type { DeliveringProvider } from '../types.js';
import { createCrmProvider } from './signed-webhook.js';
import { createEmailProvider } from './email.js';
import { createLogProvider } from './log.js';
import type { DeliveryProvider, FormLookup } from './types.js';

export type { AttemptResult, DeliveryProvider, FormLookup } from './types.js';
export { classifySmtpError, createEmailProvider } from './email.js';
export { classifyHttpStatus, createCrmProvider } from './signed-webhook.js';
export { createLogProvider } from './log.js';

/**
 * The providers this configuration can reach. A provider without its settings is absent: rows
 * stored for it (under an earlier configuration) wait and retry until it is configured again.
 */
export function createProviders(
  config: Config,
  logger: Logger,
  now: () => number = Date.now,
  formOf?: FormLookup,
): Map<DeliveringProvider, DeliveryProvider> {
  const providers = new Map<DeliveringProvider, DeliveryProvider>();
  providers.set('log', createLogProvider(logger, formOf));
  if (config.smtp)
    providers.set(
      'email-service',
      createEmailProvider({
        smtpUrl: config.smtp.url,
        from: config.smtp.from,
        recipients: { lead: config.delivery.lead.mailTo, suggestion: config.delivery.suggestion.mailTo },
        messageIdDomain: new URL(config.publicBaseUrl).hostname,
        attemptTimeoutMs: config.delivery.attemptTimeoutMs,
        ...(formOf ? { formOf } : {}),
      }),
    );
  if (config.crm)
    providers.set(
      'crm',
      createCrmProvider({
        url: config.crm.url,
        secret: config.crm.secret,
        now,
        ...(formOf ? { formOf } : {}),
      }),
    );
  return providers;
}
