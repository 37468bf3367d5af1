import { parse } from 'fast-querystring';

export type QueryParams = Record<string, string | string[]>;

/**
 * The one query-string parser of the server: Fastify routes use it (routerOptions) and so does the
 * /ask fast path, so both read `?query=a+b&query=c` the same way.
 */
export function parseQueryString(query: string): QueryParams {
  return query.length === 0 ? {} : (parse(query) as QueryParams);
}
