import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { folderLanguage, primaryLanguage } from '../../language/index.js';
import {
  askedLanguage,
  askerLanguage,
  askerLanguageVary,
  formCatalog,
  notFoundQuery,
  renderErrorPage,
  renderNotFoundPage,
  type ClosestPage,
  type SiteView,
} from '../../site/index.js';
import type { SurfaceOptions } from '../context.js';
import {
  errorHandlerRendering,
  notFoundHandler,
  renderEnvelope,
  sendEnvelope,
  type ErrorRenderer,
} from '../errors.js';
import { endpointNotFoundBody } from '../../contract/index.js';
import { assetSender, registerAssetRoutes } from '../site-handlers/assets.js';
import { registerContentPageRoutes } from '../site-handlers/content-pages.js';
import { registerEmbedRoutes } from '../site-handlers/embed.js';
import { registerFormRoutes } from '../site-handlers/forms.js';
import { decodedPath, queryParam, sendHtml, type SiteRoutesContext } from '../site-handlers/replies.js';
import { registerSearchPageRoute } from '../site-handlers/search-page.js';

/** A browser navigating to a page: GET or HEAD, with HTML among what it accepts. */
function wantsHtml(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  return (request.headers.accept ?? '').includes('text/html');
}

/**
 * The public website: static assets, the search page, the forms' no-JavaScript routes and the
 * content pages (site-handlers/), with HTML error pages.
 *
 * The site is registered last and owns the root: its content catch-all serves every GET no other
 * surface claims, and its not-found handler answers every request that matches no route. A
 * browser is shown the HTML 404 page; anything else gets the Error envelope, as do errors raised
 * before such a request is known to match nothing (a malformed body, say), since it was never a
 * page request. Hence two levels: this one for unmatched requests, a child for the page routes.
 *
 * With PAGES=off (beside a site served elsewhere, docs/beside-your-site.md) there are no pages:
 * only the embed is served here, and every other path, the root included, is a 404 in the Error
 * envelope, whatever the client accepts.
 */
export async function registerSiteSurface(app: FastifyInstance, options: SurfaceOptions): Promise<void> {
  const { context, allowedMethods } = options;
  const { bodyLimitBytes, publicBaseUrl } = context.config;
  const forms = formCatalog(context.forms);
  const view = (): SiteView => ({ site: context.site, publicBaseUrl, forms });
  const routes: SiteRoutesContext = { context, view, forms };

  /**
   * The pages a search for the words of a missing path finds (the 404 page's "did you mean"), and
   * the language to say it in: the asker's as /ask reads it, with the `lang` parameter, else the
   * language folder asked for (/de/…, when the site has pages in it), as the query's `lang`.
   */
  const languageHints = (request: FastifyRequest, path: string) => {
    const folder = folderLanguage(path.replace(/^\/+/, ''));
    return {
      lang:
        askedLanguage({ lang: queryParam(request, 'lang') }) ??
        (folder !== null && context.ask.askerLanguages.includes(primaryLanguage(folder)) ? folder : null),
      acceptLanguage: request.headers['accept-language'],
    };
  };
  const closestTo = (
    request: FastifyRequest,
    path: string,
  ): { pages: ClosestPage[]; lang: string | null } => {
    const hints = languageHints(request, path);
    const text = notFoundQuery(path);
    if (text === '') return { pages: [], lang: askerLanguage(context.ask, hints) };
    const lang = askedLanguage(hints);
    const query = context.ask.withAcceptLanguage(
      { text, maxResults: 3, conversationId: null, ...(lang !== null ? { lang } : {}) },
      hints.acceptLanguage,
    );
    // An example answer: not counted as a visitor's search.
    const answer = context.ask.exampleAnswer(query, 'not-found');
    const pages = answer.content.flatMap((item) =>
      item.type === 'resource' && item.resource.uri
        ? [
            {
              url: new URL(item.resource.uri).pathname,
              title: String((item.resource.data as { name?: unknown }).name ?? item.resource.uri),
            },
          ]
        : [],
    );
    return { pages, lang: askerLanguage(context.ask, hints, query) };
  };
  const renderPage: ErrorRenderer = (request, reply, status, body) => {
    const path = decodedPath(request) ?? '/';
    if (status !== 404) {
      reply.headers(askerLanguageVary(context.ask));
      const lang = askerLanguage(context.ask, languageHints(request, path));
      return sendHtml(reply, status, renderErrorPage(view(), path, status, body, lang));
    }
    const closest = closestTo(request, path);
    reply.headers(askerLanguageVary(context.ask));
    return sendHtml(reply, status, renderNotFoundPage(view(), path, closest.pages, closest.lang));
  };
  const notFound = (request: FastifyRequest, reply: FastifyReply, path: string) => {
    const body = endpointNotFoundBody(request.method, path);
    return wantsHtml(request) ? renderPage(request, reply, 404, body) : sendEnvelope(reply, 404, body);
  };

  const sendAsset = assetSender(context.config.compression);
  await app.register(async (site) => {
    site.setErrorHandler(errorHandlerRendering(renderEnvelope, { bodyLimitBytes }));
    registerEmbedRoutes(site, routes, sendAsset);
    if (!context.config.pages) {
      site.setNotFoundHandler(notFoundHandler(allowedMethods));
      return;
    }
    site.setNotFoundHandler(notFoundHandler(allowedMethods, notFound));
    await site.register(async (pages) => {
      pages.setErrorHandler(errorHandlerRendering(renderPage, { bodyLimitBytes }));
      registerAssetRoutes(pages, sendAsset, () => context.site, context.config.contentDir);
      registerSearchPageRoute(pages, routes);
      registerFormRoutes(pages, routes);
      // Last: the content catch-all.
      registerContentPageRoutes(pages, routes);
    });
  });
}
