import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { Site } from '../content/index.js';
import type { FormDefinition } from '../contract/index.js';
import type { InsightRecorder } from '../insight/index.js';
import type { RateLimits } from '../limits/index.js';
import type { Metrics } from '../metrics/index.js';
import type { AskService } from '../nlweb/index.js';
import type { SubmissionService } from '../submissions/index.js';
import type { AskAnswerWriter } from './ask-answer.js';
import type { AllowedMethods } from './errors.js';
import type { LiveContent } from './live-content.js';

/**
 * Everything the routes need, built once by the server (or by a test) and passed in. `site` and
 * `ask` are the content serving now: with live content they change on a reload, so routes read
 * them per request (once, and use what they read for the whole request), never at registration.
 */
export interface AppContext {
  config: Config;
  logger: Logger;
  readonly site: Site;
  readonly ask: AskService;
  submissions: SubmissionService;
  /** The site's forms (`forms:` in _site.yaml, read at start-up), or the seed's two. */
  readonly forms: readonly FormDefinition[];
  /** Counts searches and discovery-document reads for the site owner; absent when INSIGHT=off. */
  insight?: InsightRecorder;
  metrics: Metrics;
  limits: RateLimits;
  /** Present when the content can be reloaded; routes register the work a new site needs. */
  readonly content?: LiveContent;
  /**
   * Why the content is not there yet, while it is being fetched (the first crawl of CONTENT_URL
   * with no mirror from an earlier run); null once it is. /readyz says it.
   */
  readonly contentWaiting?: () => string | null;
}

/** What app.ts hands each surface it registers (see errors.ts for AllowedMethods). */
export interface SurfaceOptions {
  context: AppContext;
  allowedMethods: AllowedMethods;
  /** Writes /ask's JSON answers; shared with the /ask fast path, so both send the same bytes. */
  writer: AskAnswerWriter;
}
