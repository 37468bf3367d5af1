import type { FastifyInstance } from 'fastify';
import { apiCatalogLinkHeader } from '../../discovery/index.js';
import { CODINGS } from '../../compression/index.js';
import { encodePagePath, type Site } from '../../content/index.js';
import { renderSite, type RenderedSite } from '../../site/index.js';
import { prefersMarkdown } from '../negotiation.js';
import { BUILT_PAGE_CSP, findBuiltFile, servesBuiltFiles } from './built-files.js';
import { decodedPath, queryStringOf, sendRepresentation, type SiteRoutesContext } from './replies.js';

/**
 * Content pages, their Markdown twins and the redirects between the slash and no-slash forms: a
 * catch-all, registered last, that hands unknown paths to the not-found handler.
 */
export function registerContentPageRoutes(app: FastifyInstance, { context, forms }: SiteRoutesContext): void {
  const homeCatalogLink = apiCatalogLinkHeader(context.config.publicBaseUrl);
  // Every page is rendered once, on its first request; later requests are answered from those
  // bytes. A reload brings a new site, and with it new (empty) render caches; each request reads
  // the site once, so it is answered wholly from the old site or wholly from the new one.
  const renderedSites = new WeakMap<Site, RenderedSite>();
  const renderedOf = (site: Site): RenderedSite => {
    let rendered = renderedSites.get(site);
    if (rendered === undefined) {
      rendered = renderSite(site, context.config.publicBaseUrl, {
        codings: context.config.compression ? CODINGS : [],
        forms,
      });
      renderedSites.set(site, rendered);
    }
    return rendered;
  };
  context.content?.onPrepare((next) => void renderedOf(next.site));

  const isRegisteredGet = (path: string) =>
    /^\/[A-Za-z0-9._~\-/]*$/.test(path) && app.hasRoute({ method: 'GET', url: path });

  app.get('/*', async (request, reply) => {
    const path = decodedPath(request);
    if (path === null) return reply.callNotFound();

    const site = context.site;
    const rendered = renderedOf(site);
    const page = rendered.byPath.get(path);
    // A built static site is served as built (built-files.ts); a page's Markdown twin still comes
    // from Frontdoor, for whoever asks for Markdown.
    if (
      servesBuiltFiles(site) &&
      !(page?.page && prefersMarkdown(request.headers.accept)) &&
      !rendered.byMarkdownPath.has(path)
    ) {
      const found = await findBuiltFile(site, context.config.contentDir, path);
      if (found?.kind === 'redirect')
        return reply
          .code(308)
          .header('location', encodePagePath(found.location) + queryStringOf(request))
          .send();
      if (found?.kind === 'file') {
        if (found.html) reply.header('content-security-policy', BUILT_PAGE_CSP);
        const twin: Record<string, string> = page?.markdownPath
          ? { link: `<${encodePagePath(page.markdownPath)}>; rel="alternate"; type="text/markdown"` }
          : {};
        return sendRepresentation(request, reply, context.config.compression, found.representation, twin);
      }
    }
    if (page) {
      const linkValues = page.markdownPath
        ? [`<${encodePagePath(page.markdownPath)}>; rel="alternate"; type="text/markdown"`]
        : [];
      // RFC 9727 §3: the home page points at the API catalog.
      if (path === '/') linkValues.push(homeCatalogLink);
      const links: Record<string, string> = linkValues.length > 0 ? { link: linkValues.join(', ') } : {};
      // Only the representation sent is rendered (the Markdown twin exists for content pages).
      const markdown = page.page !== null && prefersMarkdown(request.headers.accept) ? page.markdown : null;
      const representation = markdown ?? page.html;
      return sendRepresentation(request, reply, context.config.compression, representation, links);
    }

    const twin = rendered.byMarkdownPath.get(path);
    if (twin?.markdown) return sendRepresentation(request, reply, context.config.compression, twin.markdown);

    // /solutions → /solutions/ (a folder index) and /product/x/ → /product/x (a page, or a route such as /docs).
    let target: string | null = null;
    if (!path.endsWith('/') && rendered.byPath.has(`${path}/`)) target = `${path}/`;
    else if (path.endsWith('/') && path !== '/') {
      const withoutSlash = path.slice(0, -1);
      if (rendered.byPath.has(withoutSlash) || isRegisteredGet(withoutSlash)) target = withoutSlash;
    }
    if (target !== null)
      return reply
        .code(308)
        .header('location', encodePagePath(target) + queryStringOf(request))
        .send();
    return reply.callNotFound();
  });
}
