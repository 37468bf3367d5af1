import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { loadConfig, type ConfigSource } from '../../src/config/index.js';
import { buildApp, type AppContext } from '../../src/http/app.js';
import { createAppContext } from '../../src/http/server.js';
import { LIMITS_OFF } from '../helpers/limits.js';

export const BASE_URL = 'https://www.example.test';

export interface SiteApp {
  app: FastifyInstance;
  context: AppContext;
  close(): Promise<void>;
}

/**
 * The real application (content loader, ask service, SQLite store, log delivery) for `app.inject`,
 * with PUBLIC_BASE_URL = BASE_URL and its own temp data folder.
 */
export async function buildSiteApp(env: ConfigSource = {}): Promise<SiteApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'frontdoor-site-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: BASE_URL,
    LOG_LEVEL: 'silent',
    ...LIMITS_OFF,
    ...env,
  });
  const logger = pino({ level: 'silent' });
  const context = await createAppContext(config, logger);
  const { submissions } = context;
  const app = await buildApp(context);
  await app.ready();
  return {
    app,
    context,
    close: async () => {
      await app.close();
      await submissions.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Writes a content folder (path → file text) into a fresh temp folder and returns its path. */
export function writeContent(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'frontdoor-content-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

export function page(frontMatter: Record<string, string | number>, body: string): string {
  const lines = Object.entries(frontMatter).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return `---\n${lines.join('\n')}\n---\n\n${body}\n`;
}

/** Every `<script>` element's opening tag. */
export function scriptTags(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>/gi)].map((match) => match[0]);
}

/** The JSON-LD data block of a page, parsed. */
export function jsonLdOf(html: string): unknown {
  const match = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  if (!match) throw new Error('no JSON-LD block');
  return JSON.parse(match[1]!);
}

/** The names of every attribute of every start tag (quoted values removed first). */
export function attributeNames(html: string): string[] {
  const names: string[] = [];
  for (const [tag] of html.matchAll(/<[a-zA-Z][^>]*>/g)) {
    const bare = tag.replace(/"[^"]*"|'[^']*'/g, '""');
    for (const match of bare.matchAll(/\s([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?==|\s|\/?>)/g))
      names.push(match[1]!.toLowerCase());
  }
  return names;
}
