import type { FastifyInstance } from 'fastify';
import { askerLanguageVary, HTML_TYPE, renderSearchPage, searchForPage } from '../../site/index.js';
import { clientAddress } from '../client-address.js';
import { askRefusal } from '../rate-limit.js';
import { queryParam, type SiteRoutesContext } from './replies.js';

/** GET /search: the results rendered on the server, so the page works without JavaScript. */
export function registerSearchPageRoute(app: FastifyInstance, { context, view }: SiteRoutesContext): void {
  app.get('/search', async (request, reply) => {
    // The page runs the same engine as /ask: it counts against the same per-client limit.
    const refusal = async () => {
      const decision = await askRefusal(context, request);
      if (decision === null) return null;
      reply.headers(decision.headers);
      const { quota, windowSeconds } = decision.policy;
      return { quota, windowSeconds, resetSeconds: decision.resetSeconds };
    };
    const { status, outcome, summary } = await searchForPage(
      context.ask,
      queryParam(request, 'q'),
      context.config.publicBaseUrl,
      request.id,
      refusal,
      { lang: queryParam(request, 'lang'), acceptLanguage: request.headers['accept-language'] },
    );
    if (summary)
      context.insight?.search('page', outcome.query, summary, request.headers, clientAddress(request));
    return reply
      .code(status)
      .header('cache-control', 'no-cache')
      .headers(askerLanguageVary(context.ask))
      .type(HTML_TYPE)
      .send(renderSearchPage(view(), outcome));
  });
}
