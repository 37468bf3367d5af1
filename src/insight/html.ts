import { createHash } from 'node:crypto';
import { SuggestionRequestSchema } from '../contract/index.js';
import { CLIENT_CLASSES, type ClientClass } from './classify.js';
import type { ByClass, InsightReport, QueryStat } from './report.js';
import { escapeHtml } from '../text/index.js';

/**
 * The insight report as one self-contained HTML page: inline CSS (allowed by its hash in the
 * Content-Security-Policy the route sends), charts as inline SVG, no script, no external request.
 */
export interface InsightHtmlOptions {
  siteName: string;
  /** The public site, for the document-suggestion links (no trailing slash). */
  publicBaseUrl: string;
  /** k, to say why a search's text may be missing. */
  minClients: number;
  /** Where the period form sends its GET (the report's own path). */
  formAction: string;
}

/** The public form a zero-result search is turned into a document suggestion with. */
export const SUGGESTION_FORM_PATH = '/forms/document-suggestion';
/** The contract's bound on a suggestion's text. */
const SUGGESTION_MAX_LENGTH = SuggestionRequestSchema.properties.suggestion?.maxLength ?? 1000;

const CLASS_LABELS: Record<ClientClass, string> = {
  browser: 'People (browsers)',
  agent: 'Agents',
  crawler: 'Crawlers',
  other: 'Other clients',
};
/** Fills with at least 4.5:1 contrast against white, told apart by lightness too. */
const CLASS_COLOURS: Record<ClientClass, string> = {
  browser: '#1d4f91',
  agent: '#b2421b',
  crawler: '#4f6420',
  other: '#5f5f5f',
};

const STYLE = `
:root { color-scheme: light; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; background: #fff; }
header, main, footer { max-width: 72rem; margin: 0 auto; padding: 0 1.25rem; }
header { padding-top: 1.5rem; border-bottom: 1px solid #d0d0d0; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; }
p { margin: .25rem 0 .75rem; }
a { color: #0b4f9c; }
form { display: flex; flex-wrap: wrap; gap: .75rem; align-items: end; margin: .75rem 0 1rem; }
label { display: flex; flex-direction: column; font-size: .9rem; }
input, button { font: inherit; padding: .25rem .5rem; }
button { background: #0b4f9c; color: #fff; border: 1px solid #0b4f9c; border-radius: 4px; cursor: pointer; }
dl.totals { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: .75rem; margin: 1rem 0; }
dl.totals div { border: 1px solid #d0d0d0; border-radius: 6px; padding: .5rem .75rem; }
dl.totals dt { font-size: .9rem; color: #4a4a4a; }
dl.totals dd { margin: 0; font-size: 1.5rem; font-weight: 600; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; font-size: .95rem; }
th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid #e0e0e0; vertical-align: top; }
th { background: #f3f3f3; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
td.q { overflow-wrap: anywhere; }
figure { margin: .5rem 0 1rem; }
svg.chart { width: 100%; height: auto; max-width: 60rem; }
svg text { font: 12px system-ui, sans-serif; fill: #333; }
ul.legend { list-style: none; display: flex; flex-wrap: wrap; gap: 1rem; padding: 0; margin: .25rem 0; }
ul.legend svg { vertical-align: middle; margin-right: .3rem; }
.empty { color: #4a4a4a; font-style: italic; }
.visually-hidden { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
footer { margin-top: 2.5rem; padding-bottom: 2rem; border-top: 1px solid #d0d0d0; font-size: .9rem; color: #3a3a3a; }
`;

/** The Content-Security-Policy the report is served with: its one inline style, nothing else. */
export const INSIGHT_REPORT_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const number = (n: number) => n.toLocaleString('en-GB');

function legend(): string {
  return `<ul class="legend">${CLIENT_CLASSES.map(
    (cls) =>
      `<li><svg width="14" height="14" aria-hidden="true" focusable="false"><rect width="14" height="14" fill="${CLASS_COLOURS[cls]}"/></svg>${escapeHtml(CLASS_LABELS[cls])}</li>`,
  ).join('')}</ul>`;
}

const classSummary = (byClass: ByClass) =>
  CLIENT_CLASSES.map((cls) => `${CLASS_LABELS[cls]} ${number(byClass[cls])}`).join(', ');

/** Stacked bars of searches per day, one bar per day, coloured by client class. */
function dailyChart(report: InsightReport): string {
  const days = report.daily;
  const width = 720;
  const height = 220;
  const left = 44;
  const bottom = 24;
  const top = 8;
  const plotHeight = height - top - bottom;
  const max = Math.max(1, ...days.map((d) => CLIENT_CLASSES.reduce((sum, cls) => sum + d.byClass[cls], 0)));
  const step = (width - left - 8) / Math.max(1, days.length);
  const barWidth = Math.max(1, step * 0.8);
  const bars = days
    .map((d, i) => {
      let y = top + plotHeight;
      const x = left + i * step + (step - barWidth) / 2;
      const parts = CLIENT_CLASSES.filter((cls) => d.byClass[cls] > 0).map((cls) => {
        const h = (d.byClass[cls] / max) * plotHeight;
        y -= h;
        return `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${h.toFixed(1)}" fill="${CLASS_COLOURS[cls]}"/>`;
      });
      return parts.length > 0
        ? `<g><title>${escapeHtml(`${d.day}: ${classSummary(d.byClass)}`)}</title>${parts.join('')}</g>`
        : '';
    })
    .join('');
  const ticks = [0, Math.round(max / 2), max]
    .filter((value, index, all) => all.indexOf(value) === index)
    .map((value) => {
      const y = top + plotHeight - (value / max) * plotHeight;
      return `<line x1="${left - 4}" x2="${width - 8}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" stroke="#d0d0d0"/><text x="${left - 8}" y="${(y + 4).toFixed(1)}" text-anchor="end">${number(value)}</text>`;
    })
    .join('');
  const labelled =
    days.length <= 1
      ? days.map((d, i) => [d, i] as const)
      : [[days[0]!, 0] as const, [days.at(-1)!, days.length - 1] as const];
  const labels = labelled
    .map(([d, i]) => {
      const x = left + i * step + step / 2;
      const anchor = days.length > 1 && i === days.length - 1 ? 'end' : days.length > 1 ? 'start' : 'middle';
      return `<text x="${x.toFixed(1)}" y="${height - 6}" text-anchor="${anchor}">${escapeHtml(d.day)}</text>`;
    })
    .join('');
  const total = report.totals.searches;
  return `<figure>
<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="daily-title daily-desc">
<title id="daily-title">Searches per day by client class</title>
<desc id="daily-desc">${escapeHtml(`${number(total)} searches from ${report.period.from} to ${report.period.to}; the busiest day had ${number(max)}.`)}</desc>
${ticks}${bars}${labels}
</svg>
<figcaption>${legend()}</figcaption>
</figure>`;
}

/** Horizontal stacked bars: requests per document, coloured by client class. */
function readershipChart(report: InsightReport): string {
  const rows = report.readership;
  if (rows.length === 0) return '';
  const width = 720;
  const rowHeight = 26;
  const labelWidth = 130;
  const countWidth = 60;
  const height = rows.length * rowHeight + 8;
  const max = Math.max(1, ...rows.map((r) => r.requests));
  const plotWidth = width - labelWidth - countWidth - 8;
  const bars = rows
    .map((row, i) => {
      const y = 4 + i * rowHeight;
      let x = labelWidth;
      const parts = CLIENT_CLASSES.filter((cls) => row.byClass[cls] > 0).map((cls) => {
        const w = (row.byClass[cls] / max) * plotWidth;
        const rect = `<rect x="${x.toFixed(1)}" y="${y + 3}" width="${w.toFixed(1)}" height="${rowHeight - 8}" fill="${CLASS_COLOURS[cls]}"/>`;
        x += w;
        return rect;
      });
      return `<g><title>${escapeHtml(`${row.document}: ${classSummary(row.byClass)}`)}</title><text x="${labelWidth - 8}" y="${y + rowHeight / 2 + 3}" text-anchor="end">${escapeHtml(row.document)}</text>${parts.join('')}<text x="${(x + 6).toFixed(1)}" y="${y + rowHeight / 2 + 3}">${number(row.requests)}</text></g>`;
    })
    .join('');
  return `<figure>
<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="reads-title reads-desc">
<title id="reads-title">Requests per document by client class</title>
<desc id="reads-desc">${escapeHtml(rows.map((r) => `${r.document} ${number(r.requests)}`).join(', '))}</desc>
${bars}
</svg>
<figcaption>${legend()}</figcaption>
</figure>`;
}

function table(caption: string, header: string[], numeric: ReadonlySet<number>, rows: string[][]): string {
  const th = header
    .map((title, i) => `<th scope="col"${numeric.has(i) ? ' class="n"' : ''}>${escapeHtml(title)}</th>`)
    .join('');
  const body = rows
    .map(
      (cells) =>
        `<tr>${cells.map((cell, i) => `<td${numeric.has(i) ? ' class="n"' : i === 0 ? ' class="q"' : ''}>${cell}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<div class="table-wrap"><table>
<caption class="visually-hidden">${escapeHtml(caption)}</caption>
<thead><tr>${th}</tr></thead>
<tbody>
${body}
</tbody>
</table></div>`;
}

const COUNT_COLUMNS = new Set([1, 2, 3, 4, 5]);

/** The link that opens the public suggestion form with the search's text filled in. */
export function suggestionLink(publicBaseUrl: string, query: string): string {
  const text = Array.from(query).slice(0, SUGGESTION_MAX_LENGTH).join('');
  return `${publicBaseUrl}${SUGGESTION_FORM_PATH}?${new URLSearchParams({ suggestion: text }).toString()}`;
}

function queryTable(
  caption: string,
  queries: QueryStat[],
  main: 'searches' | 'zeroResults' | 'weakMatches',
  suggest: ((query: string) => string) | null,
): string {
  if (queries.length === 0) return '<p class="empty">None in this period.</p>';
  const title = { searches: 'Searches', zeroResults: 'Zero results', weakMatches: 'Weak matches' }[main];
  const header = [
    'Query',
    title,
    'People',
    'Agents',
    'Crawlers',
    'Other',
    ...(suggest ? ['Document suggestion'] : []),
  ];
  return table(
    caption,
    header,
    COUNT_COLUMNS,
    queries.map((q) => [
      escapeHtml(q.query),
      number(q[main]),
      number(q.byClass.browser),
      number(q.byClass.agent),
      number(q.byClass.crawler),
      number(q.byClass.other),
      ...(suggest
        ? [
            `<a href="${escapeHtml(suggest(q.query))}">Suggest a document<span class="visually-hidden"> for “${escapeHtml(q.query)}”</span></a>`,
          ]
        : []),
    ]),
  );
}

export function renderInsightReport(report: InsightReport, options: InsightHtmlOptions): string {
  const { period, totals } = report;
  const reads = report.classes.reduce((sum, c) => sum + c.reads, 0);
  const people = report.classes.find((c) => c.clientClass === 'browser')!;
  const machines = report.classes.filter((c) => c.clientClass === 'agent' || c.clientClass === 'crawler');
  const title = `Search and agent insight — ${options.siteName}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(`${title} — ${period.from} to ${period.to}`)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(`${period.from} to ${period.to} (UTC days).`)}</p>
<form method="get" action="${escapeHtml(options.formAction)}">
<label for="from">From<input type="date" id="from" name="from" value="${escapeHtml(period.from)}" required></label>
<label for="to">To<input type="date" id="to" name="to" value="${escapeHtml(period.to)}" required></label>
<button type="submit">Show period</button>
</form>
</header>
<main>
<section aria-labelledby="summary">
<h2 id="summary">Summary</h2>
<dl class="totals">
<div><dt>Searches</dt><dd>${number(totals.searches)}</dd></div>
<div><dt>Found nothing</dt><dd>${number(totals.zeroResults)}</dd></div>
<div><dt>Weak matches</dt><dd>${number(totals.weakMatches)}</dd></div>
<div><dt>Document reads</dt><dd>${number(reads)}</dd></div>
<div><dt>Searches by people</dt><dd>${number(people.searches)}</dd></div>
<div><dt>Searches by agents and crawlers</dt><dd>${number(machines.reduce((sum, c) => sum + c.searches, 0))}</dd></div>
</dl>
<h3 class="visually-hidden">Searches per day</h3>
${dailyChart(report)}
</section>
<section aria-labelledby="people-agents">
<h2 id="people-agents">People vs agents</h2>
${table(
  'Searches and document reads per client class',
  ['Clients', 'Searches', 'Zero results', 'Weak matches', 'Document reads'],
  new Set([1, 2, 3, 4]),
  report.classes.map((c) => [
    escapeHtml(CLASS_LABELS[c.clientClass]),
    number(c.searches),
    number(c.zeroResults),
    number(c.weakMatches),
    number(c.reads),
  ]),
)}
</section>
<section aria-labelledby="top-queries">
<h2 id="top-queries">Top queries</h2>
${queryTable('Most asked searches', report.topQueries, 'searches', null)}
</section>
<section aria-labelledby="zero-results">
<h2 id="zero-results">Searches that found nothing</h2>
<p>Each is a document people or agents looked for and did not find: “Suggest a document” opens the site's suggestion form with the search filled in.</p>
${queryTable('Searches with no result', report.zeroResultQueries, 'zeroResults', (query) => suggestionLink(options.publicBaseUrl, query))}
</section>
<section aria-labelledby="weak-matches">
<h2 id="weak-matches">Weak matches</h2>
<p>Searches whose best result matched fewer than two thirds of their words.</p>
${queryTable('Searches answered only by weak matches', report.weakMatchQueries, 'weakMatches', null)}
</section>
<section aria-labelledby="readership">
<h2 id="readership">Agent readership</h2>
<p>Requests to the discovery documents and to /ask, by client class.</p>
${readershipChart(report)}
${
  report.readership.length === 0
    ? '<p class="empty">None in this period.</p>'
    : table(
        'Requests per document',
        ['Document', 'Requests', 'People', 'Agents', 'Crawlers', 'Other', 'Agent names'],
        COUNT_COLUMNS,
        report.readership.map((d) => [
          escapeHtml(d.document),
          number(d.requests),
          number(d.byClass.browser),
          number(d.byClass.agent),
          number(d.byClass.crawler),
          number(d.byClass.other),
          escapeHtml(d.agents.map((a) => `${a.name} (${number(a.requests)})`).join(', ') || '—'),
        ]),
      )
}
</section>
<section aria-labelledby="agents">
<h2 id="agents">Agents and crawlers</h2>
${
  report.agents.length === 0
    ? '<p class="empty">None in this period.</p>'
    : table(
        'Agents and crawlers by name',
        ['Name', 'Class', 'Requests', 'Documents'],
        new Set([2]),
        report.agents.map((a) => [
          escapeHtml(a.name),
          escapeHtml(CLASS_LABELS[a.clientClass]),
          number(a.requests),
          escapeHtml(a.documents.map((d) => `${d.document} (${number(d.requests)})`).join(', ')),
        ]),
      )
}
</section>
</main>
<footer>
<p>Counts are daily aggregates without addresses or identifiers. A search's text is kept only once ${number(options.minClients)} distinct clients asked it on the same day; the totals count every search.</p>
</footer>
</body>
</html>
`;
}
