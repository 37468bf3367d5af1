import type { IncomingHttpHeaders } from 'node:http';

/**
 * Who sent a request, in four classes:
 * - `browser`: a person's web browser;
 * - `agent`: a known AI assistant fetching for a person in real time (ChatGPT-User, Claude-User…);
 * - `crawler`: a known or self-declared robot that collects pages (search engines, AI training
 *   and search crawlers, SEO tools);
 * - `other`: everything else (curl, HTTP libraries, headless browsers, scripts, no User-Agent).
 */
export const CLIENT_CLASSES = ['browser', 'agent', 'crawler', 'other'] as const;
export type ClientClass = (typeof CLIENT_CLASSES)[number];

export interface ClientIdentity {
  clientClass: ClientClass;
  /** The product name from the table below for agents and known crawlers; '' otherwise. Never the raw User-Agent. */
  agent: string;
}

/** A User-Agent product token, matched case-insensitively as a whole word, and the name it is stored under. */
interface KnownClient {
  token: string;
  name: string;
  clientClass: 'agent' | 'crawler';
}

/**
 * The documented table (docs/insight.md repeats it). Order matters only where one token contains
 * another; each token is matched as a whole word.
 */
export const KNOWN_CLIENTS: readonly KnownClient[] = [
  // Assistants that fetch a page because a person asked them to, now.
  { token: 'ChatGPT-User', name: 'ChatGPT-User', clientClass: 'agent' },
  { token: 'Claude-User', name: 'Claude-User', clientClass: 'agent' },
  { token: 'Perplexity-User', name: 'Perplexity-User', clientClass: 'agent' },
  { token: 'MistralAI-User', name: 'MistralAI-User', clientClass: 'agent' },
  { token: 'meta-externalfetcher', name: 'meta-externalfetcher', clientClass: 'agent' },
  // AI training and AI search crawlers.
  { token: 'GPTBot', name: 'GPTBot', clientClass: 'crawler' },
  { token: 'OAI-SearchBot', name: 'OAI-SearchBot', clientClass: 'crawler' },
  { token: 'ClaudeBot', name: 'ClaudeBot', clientClass: 'crawler' },
  { token: 'Claude-SearchBot', name: 'Claude-SearchBot', clientClass: 'crawler' },
  { token: 'anthropic-ai', name: 'anthropic-ai', clientClass: 'crawler' },
  { token: 'PerplexityBot', name: 'PerplexityBot', clientClass: 'crawler' },
  { token: 'CCBot', name: 'CCBot', clientClass: 'crawler' },
  { token: 'Google-CloudVertexBot', name: 'Google-CloudVertexBot', clientClass: 'crawler' },
  { token: 'GoogleOther', name: 'GoogleOther', clientClass: 'crawler' },
  { token: 'Applebot', name: 'Applebot', clientClass: 'crawler' },
  { token: 'Amazonbot', name: 'Amazonbot', clientClass: 'crawler' },
  { token: 'Bytespider', name: 'Bytespider', clientClass: 'crawler' },
  { token: 'meta-externalagent', name: 'meta-externalagent', clientClass: 'crawler' },
  { token: 'DuckAssistBot', name: 'DuckAssistBot', clientClass: 'crawler' },
  { token: 'cohere-ai', name: 'cohere-ai', clientClass: 'crawler' },
  { token: 'YouBot', name: 'YouBot', clientClass: 'crawler' },
  // Search engines.
  { token: 'Googlebot', name: 'Googlebot', clientClass: 'crawler' },
  { token: 'Google-InspectionTool', name: 'Google-InspectionTool', clientClass: 'crawler' },
  { token: 'bingbot', name: 'bingbot', clientClass: 'crawler' },
  { token: 'DuckDuckBot', name: 'DuckDuckBot', clientClass: 'crawler' },
  { token: 'YandexBot', name: 'YandexBot', clientClass: 'crawler' },
  { token: 'Baiduspider', name: 'Baiduspider', clientClass: 'crawler' },
  // SEO and link-analysis tools.
  { token: 'AhrefsBot', name: 'AhrefsBot', clientClass: 'crawler' },
  { token: 'SemrushBot', name: 'SemrushBot', clientClass: 'crawler' },
  { token: 'MJ12bot', name: 'MJ12bot', clientClass: 'crawler' },
  { token: 'DotBot', name: 'DotBot', clientClass: 'crawler' },
  { token: 'Screaming Frog SEO Spider', name: 'Screaming Frog SEO Spider', clientClass: 'crawler' },
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const KNOWN_PATTERN = new RegExp(
  `(?:^|[^A-Za-z0-9-])(${KNOWN_CLIENTS.map((c) => escapeRegExp(c.token)).join('|')})(?![A-Za-z0-9-])`,
  'i',
);
const KNOWN_BY_TOKEN = new Map(KNOWN_CLIENTS.map((c) => [c.token.toLowerCase(), c]));

/** Robots that name themselves without being in the table. */
const SELF_DECLARED_ROBOT = /bot\b|crawl|spider|scrape|slurp|archiver|\+https?:\/\//i;

/** Browser user agents that are driven by a program, not a person. */
const AUTOMATED_BROWSER =
  /HeadlessChrome|PhantomJS|Lighthouse|Chrome-Lighthouse|Puppeteer|Playwright|Selenium/i;

/** What every mainstream browser's User-Agent looks like: Mozilla/5.0 and a rendering engine. */
const BROWSER_USER_AGENT = /^Mozilla\/5\.0 .*(?:AppleWebKit\/|Gecko\/|Trident\/)/;

const NOBODY: ClientIdentity = Object.freeze({ clientClass: 'other', agent: '' });
const BROWSER: ClientIdentity = Object.freeze({ clientClass: 'browser', agent: '' });
const UNKNOWN_CRAWLER: ClientIdentity = Object.freeze({ clientClass: 'crawler', agent: '' });

/**
 * Classifies a request from its User-Agent and shape, first matching rule wins:
 * 1. no User-Agent → other;
 * 2. a token of KNOWN_CLIENTS → its class, stored under its name;
 * 3. a self-declared robot (bot, crawl, spider, scrape, slurp, archiver, or a +http contact URL) → crawler;
 * 4. an automated browser (HeadlessChrome, Lighthouse, Puppeteer, Playwright, Selenium…) → other;
 * 5. a browser User-Agent (Mozilla/5.0 with AppleWebKit, Gecko or Trident) sent with the headers
 *    every browser adds to a navigation or fetch (Accept-Language or Sec-Fetch-Mode) → browser;
 * 6. anything else (curl, HTTP libraries, a browser User-Agent without a browser's headers) → other.
 */
export function classifyClient(headers: IncomingHttpHeaders): ClientIdentity {
  const userAgent = headers['user-agent'];
  if (userAgent === undefined || userAgent.trim() === '') return NOBODY;
  const known = KNOWN_PATTERN.exec(userAgent);
  if (known) {
    const client = KNOWN_BY_TOKEN.get(known[1]!.toLowerCase())!;
    return { clientClass: client.clientClass, agent: client.name };
  }
  if (SELF_DECLARED_ROBOT.test(userAgent)) return UNKNOWN_CRAWLER;
  if (AUTOMATED_BROWSER.test(userAgent)) return NOBODY;
  const browserShaped = headers['accept-language'] !== undefined || headers['sec-fetch-mode'] !== undefined;
  return BROWSER_USER_AGENT.test(userAgent) && browserShaped ? BROWSER : NOBODY;
}

/**
 * `classifyClient` with the answers for recent User-Agents kept: a busy site sees the same few
 * hundred again and again, and the regular expressions are the costly part. Two plain maps (with
 * and without a browser's headers) keyed by the User-Agent itself, emptied when full: no key is
 * built per request and a hit moves nothing.
 */
export function createClientClassifier(capacity = 512): (headers: IncomingHttpHeaders) => ClientIdentity {
  const shaped = new Map<string, ClientIdentity>();
  const plain = new Map<string, ClientIdentity>();
  return (headers) => {
    const userAgent = headers['user-agent'];
    if (userAgent === undefined) return NOBODY;
    // The only header besides the User-Agent the table reads is whether a browser's headers are there.
    const known =
      headers['accept-language'] !== undefined || headers['sec-fetch-mode'] !== undefined ? shaped : plain;
    let identity = known.get(userAgent);
    if (identity === undefined) {
      if (known.size >= capacity) known.clear();
      known.set(userAgent, (identity = classifyClient(headers)));
    }
    return identity;
  };
}
