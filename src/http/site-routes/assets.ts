import type { FastifyInstance } from 'fastify';
import { siteAssets } from '../../site/index.js';
import { ifNoneMatchMatches } from '../conditional.js';
import { queryParam } from './replies.js';

const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const UNVERSIONED_ASSET_CACHE_CONTROL = 'public, max-age=300';

/** Static assets: the content hash in `?v=` makes a URL immutable. */
export function registerAssetRoutes(app: FastifyInstance): void {
  const assets = siteAssets();
  app.get<{ Params: { name: string } }>('/assets/:name', (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) return reply.callNotFound();
    const versioned = queryParam(request, 'v') === asset.version;
    reply
      .header('etag', asset.etag)
      .header('cache-control', versioned ? ASSET_CACHE_CONTROL : UNVERSIONED_ASSET_CACHE_CONTROL);
    if (ifNoneMatchMatches(request.headers['if-none-match'], asset.etag)) return reply.code(304).send();
    return reply.type(asset.contentType).send(asset.body);
  });
}
