import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import type { Config } from '../../src/config/index.js';
import type { Site } from '../../src/content/index.js';
import { buildDiscoveryBundle, type DiscoveryBundle, type SitemapLimits } from '../../src/discovery/index.js';
import { AskAnswerWriter } from '../../src/http/ask-answer.js';
import { buildApp, type AppContext } from '../../src/http/app.js';
import { notFoundHandler, trackAllowedMethods } from '../../src/http/errors.js';
import { registerSecurityHeaders } from '../../src/http/security-headers.js';
import { discoveryInputOf, registerDiscoverySurface } from '../../src/http/surfaces/discovery.js';
import { BUNDLED_CONTENT } from '../support/files.js';
import { buildTestApp } from '../support/servers.js';

/** Not example.com and not localhost: `redocly lint` warns about both in `servers`. */
export const BASE = 'https://www.frontdoor-discovery.test';

export interface DiscoveryApp {
  app: FastifyInstance;
  context: AppContext;
  config: Config;
  site: Site;
  close(): Promise<void>;
}

export interface StartOptions {
  contentDir?: string;
  /**
   * `full`: the whole application (buildApp: every room's routes, for crawling pages and the home
   * page). `discovery` (default): the real context, but only the discovery surface (and the 405 for
   * a wrong method), so these tests do not depend on the other rooms' routes.
   */
  routes?: 'full' | 'discovery';
}

/**
 * The real context (content, ask service, SQLite submissions in a temp folder) with a fixed public
 * base URL; requests go through `app.inject`, so absolute URLs are rewritten to paths.
 */
export async function startDiscoveryApp(options: StartOptions = {}): Promise<DiscoveryApp> {
  const { app, context, config, close } = await buildTestApp(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: BASE,
      CONTENT_DIR: options.contentDir ?? BUNDLED_CONTENT,
    },
    (context) =>
      options.routes === 'full'
        ? buildApp(context)
        : serveBundle(context, buildDiscoveryBundle(discoveryInputOf(context))),
  );
  return { app, context, config, site: context.site, close };
}

/** Only the discovery routes over a given bundle (e.g. built with small sitemap limits). */
export async function serveBundle(context: AppContext, bundle: DiscoveryBundle): Promise<FastifyInstance> {
  const app = Fastify({ logger: false }) as unknown as FastifyInstance;
  registerSecurityHeaders(app, context.config.publicBaseUrl);
  const allowedMethods = trackAllowedMethods(app);
  // The app-wide not-found handler (405 for a wrong method), which the site surface owns in buildApp.
  app.setNotFoundHandler(notFoundHandler(allowedMethods));
  await registerDiscoverySurface(
    app,
    {
      context,
      allowedMethods,
      writer: new AskAnswerWriter({ publicBaseUrl: context.config.publicBaseUrl, compression: false }),
    },
    bundle,
  );
  await app.ready();
  return app;
}

/** Builds the bundle exactly as the server does, with optional sitemap limits. */
export function bundleFor(context: AppContext, sitemapLimits?: Partial<SitemapLimits>): DiscoveryBundle {
  return buildDiscoveryBundle({ ...discoveryInputOf(context), ...(sitemapLimits ? { sitemapLimits } : {}) });
}

/** The request path of an absolute URL of this site; fails the caller for a foreign URL. */
export function pathOf(url: string): string {
  if (!url.startsWith(BASE)) throw new Error(`${url} is not on ${BASE}`);
  const rest = url.slice(BASE.length);
  return rest === '' ? '/' : rest;
}

export async function get(
  app: FastifyInstance,
  path: string,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url: path, headers });
}

export function page(title: string, description: string, body: string, extra: string[] = []): string {
  return ['---', `title: ${title}`, `description: ${description}`, ...extra, '---', '', body, ''].join('\n');
}

export const SMALL_SITE: Record<string, string> = {
  '_site.yaml': [
    'name: Lumen Labs',
    'legalName: Lumen Labs GmbH',
    'tagline: Light meters for laboratories.',
    'description: Lumen Labs makes calibrated light meters & sensors for laboratories.',
    'contactEmail: hello@lumen.test',
    'salesEmail: sales@lumen.test',
    '',
  ].join('\n'),
  'index.md': page('Lumen Labs', 'Calibrated light meters.', 'Lumen Labs builds calibrated light meters.', [
    'date: 2025-01-02',
  ]),
  'docs/index.md': page('Documentation', 'How to use Lumen meters.', 'Start with calibration.', [
    'updated: 2025-02-03',
  ]),
  'docs/calibration.md': page(
    'Calibrating a meter',
    'Steps to calibrate a light meter.',
    '## Before you start\n\nWarm up the sensor for ten minutes.\n\n## Steps\n\nPoint the meter at the reference lamp.',
    ['updated: 2025-03-04', 'order: 1'],
  ),
  'products/index.md': page('Products [2025]', 'Every meter we sell.', 'Our meters.', ['nav: 1']),
  'products/lux-1.md': page('Lux 1', 'The entry meter.', 'The Lux 1 measures lux.', ['updated: 2025-04-05']),
};
