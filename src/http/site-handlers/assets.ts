import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { brandFiles, checkBrandFile, MAX_BRAND_FILE_BYTES, type Site } from '../../content/index.js';
import { BRAND_FILE_PREFIX, brandAssets, siteAssets, type SiteAsset } from '../../site/index.js';
import { LongLivedVariants, sendCached } from '../compression.js';
import { queryParam } from './replies.js';

const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const UNVERSIONED_ASSET_CACHE_CONTROL = 'public, max-age=300';

/** Sends one asset in the coding the request negotiates (see `assetSender`). */
export type AssetSender = (request: FastifyRequest, reply: FastifyReply, asset: SiteAsset) => FastifyReply;

/**
 * The one way an asset goes out, under /assets/ and /embed/ alike: the content hash in `?v=`
 * makes its URL immutable, otherwise a short cache; its coded variants are kept beside it.
 */
export function assetSender(compression: boolean): AssetSender {
  const variants = new LongLivedVariants();
  return (request, reply, asset) => {
    const versioned = queryParam(request, 'v') === asset.version;
    reply.header('cache-control', versioned ? ASSET_CACHE_CONTROL : UNVERSIONED_ASSET_CACHE_CONTROL);
    return sendCached(request, reply, compression, {
      ...asset,
      variants: compression ? variants.of(asset.body, asset.etag) : undefined,
    });
  };
}

/**
 * Static assets under /assets/ (the serving site's brand stylesheet and icon among them), and the
 * pictures its brand names from the content folder under /brand/.
 */
export function registerAssetRoutes(
  app: FastifyInstance,
  sendAsset: AssetSender,
  site: () => Site,
  contentDir: string,
): void {
  const assets = siteAssets();
  app.get<{ Params: { name: string } }>('/assets/:name', (request, reply) => {
    const asset = assets.get(request.params.name) ?? brandAssets(site()).get(request.params.name);
    if (!asset) return reply.callNotFound();
    return sendAsset(request, reply, asset);
  });
  const files = new BrandFileCache();
  app.get<{ Params: { '*': string } }>(`${BRAND_FILE_PREFIX}*`, async (request, reply) => {
    const current = site();
    let file: string;
    try {
      file = decodeURIComponent(request.params['*']);
    } catch {
      return reply.callNotFound();
    }
    // Only what the brand names: the rest of the content folder is not published this way.
    if (!brandFiles(current.info.brand).includes(file)) return reply.callNotFound();
    const asset = await files.read(contentDir, file);
    if (!asset) return reply.callNotFound();
    // An SVG opened on its own is a document of this origin: it may run no script, load nothing.
    reply.header('content-security-policy', BRAND_FILE_CSP);
    return sendAsset(request, reply, asset);
  });
}

/** Brand pictures are shown, never run: no script, no fetch, and a sandbox of their own. */
export const BRAND_FILE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

/** Brand pictures, read again only when their size or modification time changes. */
class BrandFileCache {
  private readonly kept = new Map<string, { stamp: string; asset: SiteAsset }>();

  async read(contentDir: string, file: string): Promise<SiteAsset | null> {
    const checked = checkBrandFile(contentDir, file);
    if (!checked.ok) return null;
    const { real, contentType } = checked;
    try {
      const stats = await stat(real);
      const stamp = `${real}:${stats.size}:${stats.mtimeMs}`;
      const kept = this.kept.get(file);
      if (kept?.stamp === stamp) return kept.asset;
      const body = await readFile(real);
      // It may have grown since it was checked; the limit holds for what is served.
      if (body.length > MAX_BRAND_FILE_BYTES) return null;
      const version = createHash('sha256').update(body).digest('hex').slice(0, 12);
      const asset: SiteAsset = {
        name: file,
        body,
        contentType,
        version,
        etag: `"${version}"`,
      };
      this.kept.set(file, { stamp, asset });
      return asset;
    } catch {
      return null;
    }
  }
}
