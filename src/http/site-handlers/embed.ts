import type { FastifyInstance } from 'fastify';
import { endpointNotFoundBody } from '../../contract/index.js';
import { EMBED_ASSETS, HTML_TYPE, renderEmbeddedForm, scriptWords, siteAssets } from '../../site/index.js';
import { sendEnvelope } from '../errors.js';
import type { AssetSender } from './assets.js';
import { PAGE_CACHE_CONTROL, queryParam, type SiteRoutesContext } from './replies.js';

/**
 * Module scripts load in CORS mode: another origin's page may load the embed only with this. The
 * files and the form markup are public and the same for everyone (no credentials), hence `*`.
 */
const EMBED_CORS = { 'access-control-allow-origin': '*' } as const;

/** Longest `lang` read: a BCP 47 tag a page uses is far shorter. */
const LANG_LIMIT = 64;

/** Longest `page` accepted: the contract's sourcePage is at most 300 characters. */
const PAGE_PATH_LIMIT = 2_000;

/**
 * The embed (docs/beside-your-site.md#the-embed): frontdoor.js, the modules it imports and frontdoor.css under
 * /embed/, and the markup of a form for `<frontdoor-form kind="…">` at /embed/forms/{kind}, for
 * the page whose path is given as `page`, in its language `lang`. Served whether or not this server serves pages.
 */
export function registerEmbedRoutes(
  app: FastifyInstance,
  routes: SiteRoutesContext,
  sendAsset: AssetSender,
): void {
  const assets = siteAssets();
  app.get<{ Params: { name: string } }>('/embed/:name', (request, reply) => {
    const asset = EMBED_ASSETS.includes(request.params.name) ? assets.get(request.params.name) : undefined;
    if (!asset) return reply.callNotFound();
    reply.headers(EMBED_CORS);
    return sendAsset(request, reply, asset);
  });
  // The embed's words in its host page's language (`lang`; English without a catalogue for it).
  app.get('/embed/words.json', (request, reply) =>
    reply
      .headers(EMBED_CORS)
      .header('cache-control', PAGE_CACHE_CONTROL)
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(scriptWords(['frontdoor.js'], queryParam(request, 'lang') || null))),
  );
  app.get<{ Params: { kind: string } }>('/embed/forms/:kind', (request, reply) => {
    const { kind } = request.params;
    const form = routes.forms.get(kind);
    if (!form)
      return sendEnvelope(reply, 404, endpointNotFoundBody(request.method, request.url.split('?')[0]!));
    const page = queryParam(request, 'page');
    // Any other value is simply not a page path: the form then carries no sourcePage.
    const pagePath = page.startsWith('/') && page.length <= PAGE_PATH_LIMIT ? page : '';
    // In the host page's language (`lang`) when the form has words in it, else as written.
    const lang = queryParam(request, 'lang').slice(0, LANG_LIMIT) || null;
    const html = renderEmbeddedForm(form, pagePath, routes.view().site.info.salesEmail, lang);
    return reply.headers(EMBED_CORS).header('cache-control', PAGE_CACHE_CONTROL).type(HTML_TYPE).send(html);
  });
}
