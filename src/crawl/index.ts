/**
 * The crawler: a live site, named by its sitemap (CONTENT_URL), kept as a mirror folder that the
 * content loader reads like any built site (docs/crawl.md).
 */
export { Crawler, ROBOTS_TOKEN, type CrawlerOptions, type CrawlOutcome } from './crawler.js';
export type { Manifest, PageRecord } from './mirror.js';
