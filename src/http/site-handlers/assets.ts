import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { siteAssets, type SiteAsset } from '../../site/index.js';
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

/** Static assets under /assets/. */
export function registerAssetRoutes(app: FastifyInstance, sendAsset: AssetSender): void {
  const assets = siteAssets();
  app.get<{ Params: { name: string } }>('/assets/:name', (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) return reply.callNotFound();
    return sendAsset(request, reply, asset);
  });
}
