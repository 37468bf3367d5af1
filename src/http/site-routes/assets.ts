import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { siteAssets, type SiteAsset } from '../../site/index.js';
import { ifNoneMatchMatches } from '../conditional.js';
import { queryParam } from './replies.js';

const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const UNVERSIONED_ASSET_CACHE_CONTROL = 'public, max-age=300';

/** One asset: the content hash in `?v=` makes its URL immutable; otherwise a short cache. */
export function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: SiteAsset) {
  const versioned = queryParam(request, 'v') === asset.version;
  reply
    .header('etag', asset.etag)
    .header('cache-control', versioned ? ASSET_CACHE_CONTROL : UNVERSIONED_ASSET_CACHE_CONTROL);
  if (ifNoneMatchMatches(request.headers['if-none-match'], asset.etag)) return reply.code(304).send();
  return reply.type(asset.contentType).send(asset.body);
}

/** Static assets under /assets/. */
export function registerAssetRoutes(app: FastifyInstance): void {
  const assets = siteAssets();
  app.get<{ Params: { name: string } }>('/assets/:name', (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) return reply.callNotFound();
    return sendAsset(request, reply, asset);
  });
}
