/**
 * The configuration: every environment variable with its parser, default and the fix its error
 * names, read once at start-up into one validated Config. More than 500 lines on purpose: it is
 * the one table of the variables, which docs/configuration.md's table is checked against.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { BUNDLED_CONTENT_DIR } from './paths.js';

/** Where one kind of submission goes. `none` is the spec's no-delivery fallback. */
export type DeliveryProviderName = 'log' | 'email-service' | 'crm' | 'none';

export interface DeliveryRoute {
  provider: DeliveryProviderName;
  /** Recipients for `email-service`; empty for the other providers. */
  mailTo: string[];
}

/** `quota` units per fixed window of `windowSeconds`, opened by the first unit. */
export interface RateLimitPolicy {
  quota: number;
  windowSeconds: number;
}

export type DatabaseConfig =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgres'; url: string; poolSize: number; connectTimeoutMs: number; queryTimeoutMs: number };

export interface Config {
  port: number;
  host: string;
  /** Absolute origin (and optional path prefix) without a trailing slash, e.g. `https://www.example.com`. */
  publicBaseUrl: string;
  dataDir: string;
  contentDir: string;
  /**
   * Where the text of built HTML pages is when neither `[data-frontdoor-body]` nor `<main>` says
   * (CONTENT_HTML_BODY); checked when the content loads, which reports a selector it cannot read.
   */
  contentHtmlBody: string | null;
  /** Reload the content when CONTENT_DIR changes (a reload can also be asked for with SIGHUP). */
  contentWatch: boolean;
  /**
   * Serve the site's HTML pages (on), or only the API, the discovery documents and the embed beside
   * a site served elsewhere at PUBLIC_BASE_URL (off; docs/beside-your-site.md).
   */
  pages: boolean;
  /** Origins (scheme://host[:port]) whose pages may call /ask and the form APIs from the browser. */
  corsOrigins: readonly string[];
  /** Compress responses the client accepts in brotli or gzip (COMPRESSION=off behind a compressing proxy). */
  compression: boolean;
  /** The largest content file loaded, in bytes; null for the content room's default (2 MiB). */
  contentMaxFileBytes: number | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /**
   * How log lines look on stdout: `json` (one JSON object a line, for collectors), `pretty` (one
   * readable line per record, for a person), `auto` (pretty when stdout is a terminal, else json).
   */
  logFormat: 'json' | 'pretty' | 'auto';
  /**
   * NODE_ENV=production: the site is live, so start-up warns in plain words about settings only fit
   * for trying it out (submissions kept in the log, a local PUBLIC_BASE_URL, no privacy page).
   */
  production: boolean;
  /** Largest accepted request body in bytes; larger bodies are answered 413 PAYLOAD_TOO_LARGE. */
  bodyLimitBytes: number;
  /** How many reverse-proxy hops to trust for the client address (0 = use the socket address). */
  trustProxyHops: number;
  database: DatabaseConfig;
  delivery: {
    lead: DeliveryRoute;
    suggestion: DeliveryRoute;
    /** Attempts before a submission is dead-lettered. */
    maxAttempts: number;
    /** Time the request waits for the first delivery attempt before answering `delivered: false`. */
    inlineBudgetMs: number;
    /** Cap on any one delivery attempt (SMTP session or webhook call). */
    attemptTimeoutMs: number;
    /** First retry delay; doubles per attempt (with full jitter) up to `retryMaxMs`. */
    retryBaseMs: number;
    retryMaxMs: number;
    /** How often the delivery worker looks for due outbox rows. */
    pollIntervalMs: number;
  };
  submissions: {
    /** Days after delivery when a submission's personal fields are erased; 0 keeps them. */
    retentionDays: number;
    /** A site form sent sooner than this after it was shown is quarantined; 0 turns the check off. */
    formMinFillMs: number;
  };
  smtp: { url: string; from: string } | null;
  crm: { url: string; secret: string } | null;
  /** Search and readership aggregates for the site owner (docs/insight.md). */
  insight: {
    enabled: boolean;
    /** k: distinct clients that must ask a text on one day before the text is stored. */
    minClients: number;
    retentionMonths: number;
    flushIntervalMs: number;
  };
  /** Abuse limits; a null policy is off. Counts are shared through Redis when `redisUrl` is set. */
  rateLimits: {
    redisUrl: string | null;
    /** Per client address (IPv6 /64). */
    leads: RateLimitPolicy | null;
    suggestions: RateLimitPolicy | null;
    ask: RateLimitPolicy | null;
    /** Global: deliveries started by every instance together. */
    deliveries: RateLimitPolicy | null;
  };
  /** The operators' listener (metrics, reports); null when METRICS_PORT is unset. */
  admin: { host: string; port: number } | null;
  /**
   * The live site crawled by its sitemap (CONTENT_URL); null when the content is a folder. Its
   * mirror folder is then `contentDir`.
   */
  crawl: CrawlConfig | null;
}

/** CONTENT_URL and the CRAWL_* settings (docs/crawl.md). */
export interface CrawlConfig {
  /** The sitemap (or sitemap index) to crawl; only pages of its origin are fetched. */
  sitemapUrl: string;
  /** The mirror of the site's pages, as a static host would serve them: the content folder. */
  siteDir: string;
  /** What the crawler knows of each page (validators, last good copy), beside the mirror. */
  manifestFile: string;
  /** Time between two crawls; 0 = only at start-up and on SIGHUP. */
  intervalMs: number;
  /** A page (or a crawl) that failed is tried again after this. */
  retryMs: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Least time between the starts of two requests (robots.txt's Crawl-delay can raise it). */
  delayMs: number;
  /** Longest a request may take, body included. */
  timeoutMs: number;
  /** Most pages taken from the sitemaps. */
  maxPages: number;
  /** Largest page kept, in bytes (after decompression). */
  maxPageBytes: number;
  /** Redirects followed for one URL (same origin only). */
  maxRedirects: number;
  /** The User-Agent sent: FrontdoorBot, its version and a URL. */
  userAgent: string;
}

/**
 * The user information of every URL in a text, with its password (or a lone token) replaced by
 * `***`: `http://u:secretpw@host` becomes `http://u:***@host`, `https://token@host` becomes
 * `https://***@host`. A configuration message quotes the value it refuses, and a URL may hold a
 * credential (SMTP_URL, DATABASE_URL, a CRM_WEBHOOK_URL that should not).
 */
export function redactCredentials(text: string): string {
  return text.replace(URL_USER_INFO, (_match, scheme: string, userInfo: string) => {
    const colon = userInfo.indexOf(':');
    return `${scheme}${colon === -1 ? '***' : `${userInfo.slice(0, colon)}:***`}@`;
  });
}

/** A scheme, `//`, then user information up to the last `@` before the host (no `/`, `?`, `#` or space in it). */
const URL_USER_INFO = /([a-z][a-z0-9+.-]*:\/\/)([^\s/?#"]*)@/gi;

/**
 * Raised at start-up; every problem names the variable and says how to fix it. Credentials in a
 * quoted URL are redacted here, once, for every place the problems go (stderr, the JSON fatal line).
 */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    const redacted = problems.map(redactCredentials);
    super(`Invalid configuration:\n${redacted.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = redacted;
    this.name = 'ConfigError';
  }
}

/** Every variable the server reads, with its meaning; the table in docs/configuration.md is written from this. */
export const CONFIG_VARIABLES = {
  NODE_ENV:
    'production: the site is live; start-up warns about settings only fit for trying it out (see docs/make-it-yours.md).',
  PORT: 'TCP port to listen on (default 3000).',
  HOST: 'Interface to bind (default 127.0.0.1; use 0.0.0.0 in a container).',
  PUBLIC_BASE_URL:
    'Absolute URL the site is reached at, used in every absolute link (default http://HOST:PORT).',
  DATA_DIR:
    'Folder for the SQLite database and the content caches: snapshot, file stamps, passage analysis, each safe to delete (default ./data).',
  CONTENT_URL:
    'Sitemap (or sitemap index) URL of a live site to crawl and serve instead of CONTENT_DIR (docs/crawl.md).',
  CRAWL_INTERVAL_MS:
    'Time between two crawls of CONTENT_URL, in ms; 0 = only at start and on SIGHUP (default 3600000).',
  CRAWL_RETRY_MS: 'A page or crawl that failed is tried again after this many ms (default 300000).',
  CRAWL_CONCURRENCY: 'Crawl requests in flight at once, 1 to 8 (default 2).',
  CRAWL_DELAY_MS:
    "Least time between the starts of two crawl requests, in ms; robots.txt's Crawl-delay can raise it (default 500).",
  CRAWL_TIMEOUT_MS: 'Longest one crawl request may take, body included, in ms (default 15000).',
  CRAWL_MAX_PAGES: 'Most pages taken from the sitemaps (default 10000).',
  CRAWL_MAX_PAGE_BYTES:
    'Largest page kept, in bytes; a larger one keeps its last good copy (default 5242880).',
  CRAWL_MAX_REDIRECTS: 'Redirects followed for one crawled URL, same origin only (default 5).',
  CONTENT_DIR:
    'Folder of Markdown pages, or of a built static site (.html), to serve (default: the bundled sample site).',
  CONTENT_HTML_BODY:
    'Where the text of built HTML pages is, when neither [data-frontdoor-body] nor <main> marks it: tag, #id, .class, [attr], [attr=value], combined or comma-separated (default: none).',
  CONTENT_WATCH: 'on: reload the site when CONTENT_DIR changes; off: only on SIGHUP (default on).',
  PAGES:
    'on: serve the HTML pages; off: only the API, discovery documents and embed, beside a site served elsewhere at PUBLIC_BASE_URL (default on).',
  CORS_ORIGINS:
    'Comma-separated origins (https://www.example.com) whose pages may call the form APIs from the browser (default none).',
  COMPRESSION:
    'on: send pages, answers and documents in brotli or gzip when the client accepts them; off: behind a proxy that compresses (default on).',
  CONTENT_MAX_FILE_BYTES:
    'Largest content file loaded, in bytes; a larger one is skipped and reported (default 2097152, 2 MiB).',
  DATABASE_URL: 'postgres:// URL to share submissions between instances; unset = SQLite under DATA_DIR.',
  DATABASE_POOL_SIZE:
    'PostgreSQL connections per instance (default 10): keep instances × pool size below max_connections.',
  DATABASE_CONNECT_TIMEOUT_MS:
    'How long to wait for a PostgreSQL connection before a write fails with 500 (default 5000).',
  DATABASE_QUERY_TIMEOUT_MS:
    'Longest PostgreSQL statement: cancelled by the server, abandoned by the client (default 5000).',
  SUBMISSION_RETENTION_DAYS:
    "Days after delivery when a submission's personal fields are erased; 0 keeps them (default 90).",
  FORM_MIN_FILL_MS:
    'A site form sent sooner than this after it was shown is quarantined, not delivered (default 3000; 0 = off).',
  LOG_LEVEL: 'pino level: fatal, error, warn, info, debug, trace or silent (default info).',
  LOG_FORMAT:
    '`json` (one JSON object a line, for a log collector) or `pretty` (readable, coloured lines from pino-pretty, e.g. `[10:42:07.123] INFO: GET /ask 200 in 3 ms`); unset: pretty when stdout is a terminal, JSON otherwise.',
  BODY_LIMIT_BYTES: 'Largest request body accepted, in bytes (default 65536, at least 16384).',
  TRUST_PROXY_HOPS: 'Reverse proxies in front of the server whose X-Forwarded-For is trusted (default 0).',
  LEAD_DELIVERY: 'Where demo requests go: log, email-service, crm or none (default log).',
  SUGGESTION_DELIVERY: 'Where document suggestions go: log, email-service, crm or none (default log).',
  SMTP_URL: 'smtp:// or smtps:// URL of the mail relay, with credentials if needed (for email-service).',
  MAIL_FROM: 'Sender address of delivery e-mails (for email-service).',
  LEAD_MAIL_TO: 'Comma-separated recipients of demo requests (LEAD_DELIVERY=email-service).',
  SUGGESTION_MAIL_TO: 'Comma-separated recipients of suggestions (SUGGESTION_DELIVERY=email-service).',
  CRM_WEBHOOK_URL: 'https:// endpoint that receives signed JSON webhooks (for crm).',
  CRM_WEBHOOK_SECRET: 'Standard Webhooks signing secret: whsec_ followed by base64 of 24-64 random bytes.',
  DELIVERY_MAX_ATTEMPTS: 'Delivery attempts before a submission is dead-lettered (default 8).',
  DELIVERY_INLINE_BUDGET_MS: 'How long a request waits for the first delivery attempt (default 1500).',
  DELIVERY_ATTEMPT_TIMEOUT_MS: 'Cap on one delivery attempt (default 10000).',
  DELIVERY_RETRY_BASE_MS: 'First retry delay, doubled per attempt with jitter (default 5000).',
  DELIVERY_RETRY_MAX_MS: 'Longest retry delay (default 3600000).',
  DELIVERY_POLL_INTERVAL_MS: 'How often the worker looks for due deliveries (default 1000).',
  INSIGHT: 'Search and agent-readership aggregates for the site owner: on or off (default on).',
  INSIGHT_MIN_CLIENTS:
    'Distinct clients that must ask a search on one day before its text is stored (k; default 3, at least 2).',
  INSIGHT_RETENTION_MONTHS: 'Months the insight aggregates are kept before they are deleted (default 13).',
  INSIGHT_FLUSH_INTERVAL_MS: 'How often insight counts are written to the store, in ms (default 10000).',
  REDIS_URL:
    'redis:// or rediss:// URL shared by every instance for the rate limits; unset = counted in each process.',
  RATE_LIMIT_LEADS: 'Demo requests per client address (IPv6 /64) as COUNT/SECONDS, or off (default 5/600).',
  RATE_LIMIT_SUGGESTIONS:
    'Document suggestions per client address as COUNT/SECONDS, or off (default 10/600).',
  RATE_LIMIT_ASK:
    '/ask requests (GET and POST) and /search page searches per client address as COUNT/SECONDS, or off (default 600/60).',
  RATE_LIMIT_DELIVERIES:
    'Deliveries started by all instances together as COUNT/SECONDS, or off; over it they wait (default 120/60).',
  METRICS_PORT:
    'Port of the admin listener serving Prometheus metrics at /metrics (unset = no admin listener; must differ from PORT).',
  METRICS_HOST: 'Interface the admin listener binds (default 127.0.0.1: keep it off the public network).',
  FRONTDOOR_CONFIG: 'Optional YAML or JSON file with any of these variables as keys; the environment wins.',
} as const;

export type ConfigVariable = keyof typeof CONFIG_VARIABLES;
export type ConfigSource = Partial<Record<string, string | undefined>>;

const PROVIDERS: readonly DeliveryProviderName[] = ['log', 'email-service', 'crm', 'none'];
const LOG_LEVELS: readonly Config['logLevel'][] = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
];

/** A deliberately simple, linear-time address check for configured recipients and senders. */
const PLAIN_ADDRESS = /^[^\s@,<>"]+@[^\s@,<>"]+\.[^\s@,<>"]+$/;

/**
 * Reads the configuration from `env` (normally `process.env`), merged over the optional
 * FRONTDOOR_CONFIG file, and validates all of it at once so an operator sees every problem.
 */
export function loadConfig(env: ConfigSource = process.env, cwd = process.cwd()): Config {
  const problems: string[] = [];
  const source = mergeConfigFile(env, cwd, problems);
  const read = (name: ConfigVariable): string | undefined => {
    const value = source[name]?.trim();
    return value === '' ? undefined : value;
  };

  const integer = (name: ConfigVariable, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name}="${raw}" is not valid: set it to a whole number from ${min} to ${max}.`);
      return fallback;
    }
    return Number(raw);
  };

  const port = integer('PORT', 3000, 0, 65535);
  const host = read('HOST') ?? '127.0.0.1';

  const publicBaseUrl = parsePublicBaseUrl(read('PUBLIC_BASE_URL'), host, port, problems);
  const dataDir = resolve(cwd, read('DATA_DIR') ?? 'data');
  const contentDir = read('CONTENT_DIR') ? resolve(cwd, read('CONTENT_DIR')!) : BUNDLED_CONTENT_DIR;

  const contentHtmlBody = read('CONTENT_HTML_BODY')?.trim() || null;

  const contentWatchRaw = read('CONTENT_WATCH') ?? 'on';
  if (contentWatchRaw !== 'on' && contentWatchRaw !== 'off')
    problems.push(`CONTENT_WATCH="${contentWatchRaw}" is not valid: use on or off.`);
  const contentWatch = contentWatchRaw !== 'off';
  const compressionRaw = read('COMPRESSION') ?? 'on';
  if (compressionRaw !== 'on' && compressionRaw !== 'off')
    problems.push(
      `COMPRESSION="${compressionRaw}" is not valid: use on (compress for clients that accept it) or off (a proxy in front compresses).`,
    );
  const compression = compressionRaw !== 'off';

  const pagesRaw = read('PAGES') ?? 'on';
  if (pagesRaw !== 'on' && pagesRaw !== 'off')
    problems.push(
      `PAGES="${pagesRaw}" is not valid: use on to serve the HTML pages, or off to serve only the API beside your site.`,
    );
  const corsOrigins = parseOriginList(read('CORS_ORIGINS'), problems);
  const contentMaxFileBytes =
    read('CONTENT_MAX_FILE_BYTES') === undefined
      ? null
      : integer('CONTENT_MAX_FILE_BYTES', 0, 1024, 1_073_741_824);

  const logLevelRaw = read('LOG_LEVEL') ?? 'info';
  let logLevel: Config['logLevel'] = 'info';
  if ((LOG_LEVELS as readonly string[]).includes(logLevelRaw)) logLevel = logLevelRaw as Config['logLevel'];
  else problems.push(`LOG_LEVEL="${logLevelRaw}" is not valid: use one of ${LOG_LEVELS.join(', ')}.`);

  const logFormatRaw = read('LOG_FORMAT');
  let logFormat: Config['logFormat'] = 'auto';
  if (logFormatRaw === 'json' || logFormatRaw === 'pretty') logFormat = logFormatRaw;
  else if (logFormatRaw !== undefined)
    problems.push(
      `LOG_FORMAT="${logFormatRaw}" is not valid: use json (for a log collector) or pretty (for a person), or leave it unset to choose by whether stdout is a terminal.`,
    );

  const databaseUrl = read('DATABASE_URL');
  let database: DatabaseConfig = { kind: 'sqlite', file: resolve(dataDir, 'frontdoor.sqlite') };
  if (databaseUrl !== undefined) {
    if (/^postgres(ql)?:\/\//.test(databaseUrl))
      database = {
        kind: 'postgres',
        url: databaseUrl,
        poolSize: integer('DATABASE_POOL_SIZE', 10, 1, 1_000),
        connectTimeoutMs: integer('DATABASE_CONNECT_TIMEOUT_MS', 5_000, 100, 120_000),
        queryTimeoutMs: integer('DATABASE_QUERY_TIMEOUT_MS', 5_000, 100, 600_000),
      };
    else
      problems.push(
        'DATABASE_URL is not a postgres:// URL: set it to postgres://user:password@host:5432/db, or unset it to use SQLite.',
      );
  }

  const smtpUrl = read('SMTP_URL');
  const mailFrom = read('MAIL_FROM');
  const crmUrl = read('CRM_WEBHOOK_URL');
  const crmSecret = read('CRM_WEBHOOK_SECRET');

  const route = (
    name: 'LEAD_DELIVERY' | 'SUGGESTION_DELIVERY',
    mailToName: ConfigVariable,
  ): DeliveryRoute => {
    const raw = read(name) ?? 'log';
    if (!(PROVIDERS as readonly string[]).includes(raw)) {
      problems.push(`${name}="${raw}" is not valid: use one of ${PROVIDERS.join(', ')}.`);
      return { provider: 'log', mailTo: [] };
    }
    const provider = raw as DeliveryProviderName;
    if (provider === 'email-service') {
      if (!smtpUrl)
        problems.push(`SMTP_URL is required when ${name}=email-service: set smtp://user:pass@host:587.`);
      if (!mailFrom)
        problems.push(`MAIL_FROM is required when ${name}=email-service: set the sender address.`);
      const recipients = parseAddressList(read(mailToName));
      if (recipients === null || recipients.length === 0)
        problems.push(
          `${mailToName} is required when ${name}=email-service: set one or more comma-separated addresses, e.g. sales@example.com.`,
        );
      return { provider, mailTo: recipients ?? [] };
    }
    if (provider === 'crm') {
      if (!crmUrl)
        problems.push(`CRM_WEBHOOK_URL is required when ${name}=crm: set the https:// webhook endpoint.`);
      if (!crmSecret)
        problems.push(
          `CRM_WEBHOOK_SECRET is required when ${name}=crm: set whsec_ followed by a base64 secret.`,
        );
    }
    return { provider, mailTo: [] };
  };

  const lead = route('LEAD_DELIVERY', 'LEAD_MAIL_TO');
  const suggestion = route('SUGGESTION_DELIVERY', 'SUGGESTION_MAIL_TO');

  if (smtpUrl !== undefined && !/^smtps?:\/\/[^/]+/.test(smtpUrl))
    problems.push(
      'SMTP_URL is not valid: use smtp://user:password@host:587 or smtps://user:password@host:465.',
    );
  if (mailFrom !== undefined && !PLAIN_ADDRESS.test(mailFrom))
    problems.push(`MAIL_FROM="${mailFrom}" is not an e-mail address: set one such as website@example.com.`);
  if (crmUrl !== undefined) checkWebhookUrl(crmUrl, problems);
  if (crmSecret !== undefined) checkWebhookSecret(crmSecret, problems);

  const delivery: Config['delivery'] = {
    lead,
    suggestion,
    maxAttempts: integer('DELIVERY_MAX_ATTEMPTS', 8, 1, 100),
    inlineBudgetMs: integer('DELIVERY_INLINE_BUDGET_MS', 1500, 0, 30_000),
    attemptTimeoutMs: integer('DELIVERY_ATTEMPT_TIMEOUT_MS', 10_000, 100, 120_000),
    retryBaseMs: integer('DELIVERY_RETRY_BASE_MS', 5_000, 10, 3_600_000),
    retryMaxMs: integer('DELIVERY_RETRY_MAX_MS', 3_600_000, 10, 86_400_000),
    pollIntervalMs: integer('DELIVERY_POLL_INTERVAL_MS', 1_000, 10, 60_000),
  };
  if (delivery.retryMaxMs < delivery.retryBaseMs)
    problems.push(
      'DELIVERY_RETRY_MAX_MS is smaller than DELIVERY_RETRY_BASE_MS: raise it or lower the base.',
    );

  const insightSwitch = read('INSIGHT') ?? 'on';
  if (insightSwitch !== 'on' && insightSwitch !== 'off')
    problems.push(`INSIGHT="${insightSwitch}" is not valid: use on or off.`);
  const insight: Config['insight'] = {
    enabled: insightSwitch !== 'off',
    minClients: integer('INSIGHT_MIN_CLIENTS', 3, 2, 1000),
    retentionMonths: integer('INSIGHT_RETENTION_MONTHS', 13, 1, 120),
    flushIntervalMs: integer('INSIGHT_FLUSH_INTERVAL_MS', 10_000, 100, 600_000),
  };
  const policy = (name: ConfigVariable, fallback: RateLimitPolicy): RateLimitPolicy | null => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (raw.toLowerCase() === 'off') return null;
    const match = /^(\d{1,9})\s*\/\s*(\d{1,6})$/.exec(raw);
    const quota = Number(match?.[1]);
    const windowSeconds = Number(match?.[2]);
    if (!match || quota < 1 || windowSeconds < 1 || windowSeconds > 86_400) {
      problems.push(
        `${name}="${raw}" is not valid: write COUNT/SECONDS with a window of 1 to 86400 seconds (e.g. ${fallback.quota}/${fallback.windowSeconds}), or off.`,
      );
      return fallback;
    }
    return { quota, windowSeconds };
  };
  const redisUrl = read('REDIS_URL') ?? null;
  if (redisUrl !== null && !/^rediss?:\/\/[^/]/.test(redisUrl))
    problems.push(
      'REDIS_URL is not a redis:// URL: set it to redis://host:6379 (or rediss:// for TLS), or unset it to count in each process.',
    );
  const rateLimits: Config['rateLimits'] = {
    redisUrl,
    leads: policy('RATE_LIMIT_LEADS', { quota: 5, windowSeconds: 600 }),
    suggestions: policy('RATE_LIMIT_SUGGESTIONS', { quota: 10, windowSeconds: 600 }),
    ask: policy('RATE_LIMIT_ASK', { quota: 600, windowSeconds: 60 }),
    deliveries: policy('RATE_LIMIT_DELIVERIES', { quota: 120, windowSeconds: 60 }),
  };

  const metricsPortRaw = read('METRICS_PORT');
  let admin: Config['admin'] = null;
  if (metricsPortRaw !== undefined) {
    const metricsPort = integer('METRICS_PORT', 0, 0, 65535);
    if (metricsPort !== 0 && metricsPort === port)
      problems.push(
        `METRICS_PORT=${metricsPort} is the public PORT: give the admin listener its own port (e.g. 9464).`,
      );
    admin = { host: read('METRICS_HOST') ?? '127.0.0.1', port: metricsPort };
  }

  const contentUrl = read('CONTENT_URL');
  let crawl: CrawlConfig | null = null;
  if (contentUrl !== undefined) {
    if (read('CONTENT_DIR') !== undefined)
      problems.push(
        'CONTENT_DIR and CONTENT_URL are both set: unset one (CONTENT_DIR serves a folder, CONTENT_URL crawls a live site into DATA_DIR).',
      );
    crawl = crawlConfig(contentUrl, dataDir, publicBaseUrl, integer, problems);
  }

  const config: Config = {
    port,
    host,
    publicBaseUrl,
    dataDir,
    contentDir,
    contentHtmlBody,
    contentWatch,
    pages: pagesRaw !== 'off',
    corsOrigins,
    compression,
    contentMaxFileBytes,
    logLevel,
    logFormat,
    production: read('NODE_ENV') === 'production',
    bodyLimitBytes: integer('BODY_LIMIT_BYTES', 65_536, 16_384, 10_485_760),
    trustProxyHops: integer('TRUST_PROXY_HOPS', 0, 0, 10),
    database,
    delivery,
    submissions: {
      retentionDays: integer('SUBMISSION_RETENTION_DAYS', 90, 0, 36_500),
      formMinFillMs: integer('FORM_MIN_FILL_MS', 3_000, 0, 600_000),
    },
    smtp: smtpUrl && mailFrom ? { url: smtpUrl, from: mailFrom } : null,
    crm: crmUrl && crmSecret ? { url: crmUrl, secret: crmSecret } : null,
    insight,
    rateLimits,
    admin,
    crawl,
  };

  if (crawl !== null) {
    // The content folder is the crawler's mirror, which it reloads itself when it changed.
    config.contentDir = crawl.siteDir;
    config.contentWatch = false;
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** The crawler's version in its User-Agent: raised when what it fetches or how changes. */
const CRAWLER_VERSION = '1.0';

function crawlConfig(
  raw: string,
  dataDir: string,
  publicBaseUrl: string,
  integer: (name: ConfigVariable, fallback: number, min: number, max: number) => number,
  problems: string[],
): CrawlConfig | null {
  const settings = {
    intervalMs: integer('CRAWL_INTERVAL_MS', 3_600_000, 0, 604_800_000),
    retryMs: integer('CRAWL_RETRY_MS', 300_000, 1_000, 86_400_000),
    concurrency: integer('CRAWL_CONCURRENCY', 2, 1, 8),
    delayMs: integer('CRAWL_DELAY_MS', 500, 0, 60_000),
    timeoutMs: integer('CRAWL_TIMEOUT_MS', 15_000, 100, 120_000),
    maxPages: integer('CRAWL_MAX_PAGES', 10_000, 1, 100_000),
    maxPageBytes: integer('CRAWL_MAX_PAGE_BYTES', 5_242_880, 1_024, 104_857_600),
    maxRedirects: integer('CRAWL_MAX_REDIRECTS', 5, 0, 20),
  };
  if (settings.intervalMs !== 0 && settings.intervalMs < 1_000)
    problems.push(
      `CRAWL_INTERVAL_MS="${settings.intervalMs}" is too short: set 0 (crawl only at start and on SIGHUP) or at least 1000.`,
    );
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    problems.push(
      `CONTENT_URL="${raw}" is not an absolute URL: set the site's sitemap, e.g. https://www.example.com/sitemap.xml.`,
    );
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    problems.push(`CONTENT_URL must start with https:// (or http://): set the site's sitemap URL.`);
    return null;
  }
  // Said without the value: it may hold the very credentials the message is about.
  if (url.username !== '' || url.password !== '') {
    problems.push(
      'CONTENT_URL must not contain a user name or password: the crawler fetches public pages only; remove them from the URL.',
    );
    return null;
  }
  if (url.hash !== '') problems.push(`CONTENT_URL="${raw}" must not have a #fragment: remove it.`);
  // One folder per origin (a port is part of it), in characters every file system accepts.
  const originKey = `${url.protocol.slice(0, -1)}_${url.host}`.replace(/[^a-z0-9.-]/gi, '_');
  const folder = resolve(dataDir, 'crawl', originKey);
  return {
    sitemapUrl: url.href,
    siteDir: resolve(folder, 'site'),
    manifestFile: resolve(folder, 'manifest.json'),
    ...settings,
    userAgent: `FrontdoorBot/${CRAWLER_VERSION} (+${publicBaseUrl})`,
  };
}

function mergeConfigFile(env: ConfigSource, cwd: string, problems: string[]): ConfigSource {
  const file = env.FRONTDOOR_CONFIG?.trim();
  if (!file) return env;
  const path = isAbsolute(file) ? file : resolve(cwd, file);
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(path, 'utf8'));
  } catch (error) {
    problems.push(
      `FRONTDOOR_CONFIG="${file}" could not be read (${(error as Error).message.split('\n')[0]}): point it at a readable YAML or JSON file, or unset it.`,
    );
    return env;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    problems.push(`FRONTDOOR_CONFIG="${file}" must hold a mapping of variable names to values.`);
    return env;
  }
  const fromFile: ConfigSource = {};
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (!(key in CONFIG_VARIABLES) || key === 'FRONTDOOR_CONFIG') {
      problems.push(
        `FRONTDOOR_CONFIG file has an unknown key "${key}": use only the variable names in docs/configuration.md.`,
      );
      continue;
    }
    if (value === null || typeof value === 'object') {
      problems.push(`FRONTDOOR_CONFIG file key ${key} must be a string or a number.`);
      continue;
    }
    fromFile[key] = String(value);
  }
  const merged: ConfigSource = { ...fromFile };
  for (const [key, value] of Object.entries(env))
    if (value !== undefined && value !== '') merged[key] = value;
  return merged;
}

function parsePublicBaseUrl(raw: string | undefined, host: string, port: number, problems: string[]): string {
  if (raw === undefined) {
    const shownHost =
      host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
    return `http://${shownHost}:${port}`;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    problems.push(`PUBLIC_BASE_URL="${raw}" is not an absolute URL: set it like https://www.example.com.`);
    return 'http://localhost';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    problems.push(`PUBLIC_BASE_URL="${raw}" must start with https:// (or http:// for local use).`);
  }
  if (url.search || url.hash) problems.push(`PUBLIC_BASE_URL="${raw}" must not have a query or fragment.`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * CORS_ORIGINS: each entry must be exactly an origin (what a browser sends in `Origin`), so it
 * is compared as a string; a path, a wildcard or credentials would suggest a match it never makes.
 */
function parseOriginList(raw: string | undefined, problems: string[]): string[] {
  if (raw === undefined) return [];
  const origins: string[] = [];
  for (const entry of raw.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    let url: URL | null = null;
    try {
      url = new URL(entry);
    } catch {
      url = null;
    }
    const origin =
      url !== null &&
      (url.protocol === 'https:' || url.protocol === 'http:') &&
      url.username === '' &&
      url.password === '' &&
      url.pathname === '/' &&
      !entry.includes('*') &&
      !/[?#]/.test(entry) &&
      /^https?:\/\/[^/]+\/?$/i.test(entry)
        ? url.origin
        : null;
    if (origin === null) {
      problems.push(
        `CORS_ORIGINS entry "${entry.slice(0, 100)}" is not an origin: write scheme, host and port only, e.g. https://www.example.com (comma-separated, no path, no wildcard).`,
      );
      continue;
    }
    if (!origins.includes(origin)) origins.push(origin);
  }
  return origins;
}

/** Parses `a@x.com, b@y.com`; null when any entry is not a plain address. */
function parseAddressList(raw: string | undefined): string[] | null {
  if (raw === undefined) return [];
  const list = raw
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  return list.every((a) => PLAIN_ADDRESS.test(a)) ? list : null;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function checkWebhookUrl(raw: string, problems: string[]): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    problems.push(
      `CRM_WEBHOOK_URL="${raw}" is not an absolute URL: set https://crm.example.com/hooks/leads.`,
    );
    return;
  }
  // fetch refuses URLs with credentials, so every delivery would fail; the secret is the credential.
  if (url.username !== '' || url.password !== '')
    problems.push(
      'CRM_WEBHOOK_URL must not contain a user name or password: remove them from the URL; the receiver authenticates deliveries by their signature (CRM_WEBHOOK_SECRET).',
    );
  // Plain http is allowed only to this machine (a local relay or a test receiver): leads are personal data.
  const local = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !local)
    problems.push(`CRM_WEBHOOK_URL="${raw}" must use https:// (plain http is accepted only for localhost).`);
}

function checkWebhookSecret(raw: string, problems: string[]): void {
  const body = raw.startsWith('whsec_') ? raw.slice('whsec_'.length) : null;
  const bytes = body !== null && /^[A-Za-z0-9+/]+={0,2}$/.test(body) ? Buffer.from(body, 'base64').length : 0;
  if (bytes < 24 || bytes > 64)
    problems.push(
      "CRM_WEBHOOK_SECRET must be whsec_ followed by base64 of 24 to 64 random bytes: generate one with `node -e \"console.log('whsec_'+require('crypto').randomBytes(32).toString('base64'))\"`.",
    );
}
