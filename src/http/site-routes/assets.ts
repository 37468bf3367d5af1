import type { FastifyInstance } from 'fastify';
import { siteAssets } from '../../site/index.js';
import { LongLivedVariants, sendCached } from '../compression.js';
import { queryParam } from './replies.js';

const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const UNVERSIONED_ASSET_CACHE_CONTROL = 'public, max-age=300';

/** Static assets: the content hash in `?v=` makes a URL immutable. */
export function registerAssetRoutes(app: FastifyInstance, compression: boolean): void {
  const assets = siteAssets();
  const variants = new LongLivedVariants();
  app.get<{ Params: { name: string } }>('/assets/:name', (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) return reply.callNotFound();
    const versioned = queryParam(request, 'v') === asset.version;
    reply.header('cache-control', versioned ? ASSET_CACHE_CONTROL : UNVERSIONED_ASSET_CACHE_CONTROL);
    return sendCached(request, reply, compression, {
      ...asset,
      variants: compression ? variants.of(asset.body, asset.etag) : undefined,
    });
  });
}
