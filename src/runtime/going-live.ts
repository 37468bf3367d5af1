import type { Config } from '../config/index.js';
import type { Site } from '../content/index.js';

/**
 * What a site owner must know before visitors arrive, in their words rather than the server's:
 * settings that are right for trying Frontdoor out and wrong for a live site. Start-up logs them
 * in production (NODE_ENV=production) and `frontdoor check --production` prints them. They are
 * warnings: the site still serves, and /readyz still answers for what it checks (the store and
 * the index), since a site delivering to the log is working as configured.
 */
export function goingLiveWarnings(config: Pick<Config, 'publicBaseUrl' | 'delivery'>, site: Site): string[] {
  const warnings: string[] = [];
  const { lead, suggestion } = config.delivery;
  if (lead.provider === 'log')
    warnings.push(
      'Demo requests are only written to the server log: no one is e-mailed and no CRM receives them, while visitors are told your team will contact them. Set LEAD_DELIVERY=email-service (with SMTP_URL, MAIL_FROM and LEAD_MAIL_TO) or LEAD_DELIVERY=crm (docs/delivery.md).',
    );
  if (lead.provider === 'none')
    warnings.push(
      'Demo requests are thrown away (LEAD_DELIVERY=none): visitors who ask for a demo are never answered. Set LEAD_DELIVERY=email-service or crm (docs/delivery.md).',
    );
  if (suggestion.provider === 'log')
    warnings.push(
      'Suggestions from the site are only written to the server log: no one will read them unless they read the log. Set SUGGESTION_DELIVERY=email-service (with SUGGESTION_MAIL_TO) or crm (docs/delivery.md).',
    );
  const local = localAddress(config.publicBaseUrl);
  if (local !== null)
    warnings.push(
      `PUBLIC_BASE_URL is ${config.publicBaseUrl}, ${local}: links in the sitemap, e-mails and agent documents lead there, where visitors cannot follow. Set PUBLIC_BASE_URL to the address visitors type, such as https://www.example.com.`,
    );
  if (!hasPrivacyPage(site))
    warnings.push(
      'The forms ask visitors for their name and e-mail address, but the site has no privacy page: add privacy.md to the content folder saying what you collect, why, how long you keep it and whom to ask to delete it.',
    );
  return warnings;
}

/** Why an address only this machine or its network can open is local; null for a public one. */
export function localAddress(baseUrl: string): string | null {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return 'an address of this computer';
  if (/^127\./.test(host) || host === '::1' || host === '0.0.0.0') return 'an address of this computer';
  if (/^10\./.test(host) || /^192\.168\./.test(host) || /^172\.(1[6-9]|2\d|3[01])\./.test(host))
    return 'an address of a private network';
  if (/^(fc|fd)[0-9a-f]{2}:/.test(host) || /^fe80:/.test(host)) return 'an address of a private network';
  if (host.endsWith('.local') || host.endsWith('.internal') || host.endsWith('.lan') || !host.includes('.'))
    return 'a name only a local network knows';
  return null;
}

/** A page at /privacy (file or folder), or any page whose address names privacy. */
function hasPrivacyPage(site: Site): boolean {
  return site.pages.some((page) => /\/privacy[^/]*\/?$/.test(page.url));
}
