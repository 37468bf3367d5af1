/**
 * The abuse limits switched off: suites that send many requests from 127.0.0.1 use this so that
 * the production defaults do not throttle them; the limit tests set their own values.
 */
export const LIMITS_OFF = {
  RATE_LIMIT_LEADS: 'off',
  RATE_LIMIT_SUGGESTIONS: 'off',
  RATE_LIMIT_ASK: 'off',
  RATE_LIMIT_DELIVERIES: 'off',
} as const;
