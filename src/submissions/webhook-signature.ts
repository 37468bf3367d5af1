import { createHmac } from 'node:crypto';

/** Key bytes of a Standard Webhooks secret (`whsec_` + base64). */
export function webhookKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/**
 * Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`.
 * https://www.standardwebhooks.com/ — receivers verify it with any of the published libraries.
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', webhookKey(secret))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}
