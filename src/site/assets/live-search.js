// Live search, shared by the site's own boxes (search.js) and the embeddable <frontdoor-search>
// (frontdoor.js). Results stream from GET /ask as Server-Sent Events (unnamed `data:` events: first
// {"_meta"}, then {"content": [...]} chunks) and are shown as they arrive. Server strings only ever
// reach the page through textContent; the scripts' own words are the page's (words.js).
import { corrections, say, weakMatches } from './words.js';

const MIN_QUERY_LENGTH = 2;
const DEBOUNCE_MS = 180;

const canonicalOrigin = (() => {
  const link = document.querySelector('link[rel="canonical"]');
  try {
    return new URL(link ? link.href : location.href).origin;
  } catch {
    return location.origin;
  }
})();

function safeDecode(path) {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** A result URL on this site becomes a path, so it works on whichever host serves the page. */
function linkOf(url) {
  let parsed;
  try {
    parsed = new URL(url, location.href);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  if (parsed.origin === canonicalOrigin || parsed.origin === location.origin) {
    const path = parsed.pathname + parsed.search + parsed.hash;
    return { href: path, display: safeDecode(path) };
  }
  return { href: parsed.href, display: parsed.href };
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Ranges to mark: the server's `highlights`, else every occurrence of its `matchedWords`. */
function rangesOf(text, data) {
  if (Array.isArray(data.highlights)) {
    return data.highlights.filter(
      (range) =>
        range &&
        Number.isInteger(range.start) &&
        Number.isInteger(range.end) &&
        range.start >= 0 &&
        range.end <= text.length &&
        range.start < range.end,
    );
  }
  const words = Array.isArray(data.matchedWords)
    ? data.matchedWords.filter((w) => typeof w === 'string' && w)
    : [];
  if (words.length === 0) return [];
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{N}])(?:${words.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`,
    'giu',
  );
  return [...text.matchAll(pattern)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
  }));
}

function snippetOf(text, data) {
  const fragment = document.createDocumentFragment();
  let position = 0;
  for (const { start, end } of rangesOf(text, data).sort((a, b) => a.start - b.start)) {
    if (start < position) continue;
    fragment.append(text.slice(position, start));
    const mark = document.createElement('mark');
    mark.textContent = text.slice(start, end);
    fragment.append(mark);
    position = end;
  }
  fragment.append(text.slice(position));
  return fragment;
}

function linkParts(className, href, name, display, description, data) {
  const anchor = document.createElement('a');
  anchor.className = className;
  anchor.href = href;
  const title = document.createElement('span');
  title.className = className === 'result-link' ? 'result-title' : 'result-section-title';
  title.textContent = name;
  anchor.append(title);
  if (display) {
    const url = document.createElement('span');
    url.className = 'result-url';
    url.textContent = display;
    anchor.append(url);
  }
  if (typeof description === 'string' && description) {
    const snippet = document.createElement('span');
    snippet.className = 'result-snippet';
    snippet.append(snippetOf(description, data));
    anchor.append(snippet);
  }
  return anchor;
}

/**
 * One entry per page: the page link with its best section's snippet, then its other matching
 * sections (heading and snippet) as links to their anchors.
 */
function resultItem(data) {
  if (!data || typeof data.url !== 'string') return null;
  const link = linkOf(data.url);
  if (!link) return null;
  const item = document.createElement('li');
  item.className = 'result';
  const name = typeof data.name === 'string' && data.name ? data.name : link.display;
  const sections = Array.isArray(data.sections) ? data.sections : [];
  const best = sections[0];
  // The best section's anchor, unless it is the top of the page.
  const bestLink = best && typeof best.url === 'string' ? linkOf(best.url) : null;
  item.append(
    linkParts(
      'result-link',
      bestLink ? bestLink.href : link.href,
      name,
      link.display,
      data.description,
      data,
    ),
  );
  const more = document.createElement('ul');
  more.className = 'result-sections';
  for (const section of sections.slice(1)) {
    if (!section || typeof section.url !== 'string' || typeof section.name !== 'string') continue;
    const sectionLink = linkOf(section.url);
    if (!sectionLink) continue;
    const entry = document.createElement('li');
    entry.append(
      linkParts('result-section', sectionLink.href, section.name, '', section.description, section),
    );
    more.append(entry);
  }
  if (more.childElementCount > 0) item.append(more);
  return item;
}

// "Showing results for “…”" as /ask writes it in each language of the catalogue (words.js).
let correctionPatterns = null;

/**
 * The correction at the start of the answer's text ("Showing results for “…”. " in any language):
 * the corrected query and the text after it; null without one.
 */
function correctionOf(text) {
  correctionPatterns ??= corrections().map((template) => {
    const [before, after] = template.split('{query}');
    return new RegExp(`^${escapeRegExp(before)}(.*?)${escapeRegExp(after)}\\. `, 'u');
  });
  for (const pattern of correctionPatterns) {
    const match = pattern.exec(text);
    if (match) return { query: match[1], rest: text.slice(match[0].length) };
  }
  return null;
}

/**
 * Opens the event stream for one query. `handlers.text(text)`, `handlers.result(data)` and
 * `handlers.done(ok)`; returns a function that stops the stream. The server's last event is
 * `{"message_type":"complete"}`: the answer is whole and the stream is closed here, so it never
 * reconnects. A stream that ends without it (EventSource reports an error) was cut off: ok false.
 */
function streamAsk(askUrl, query, handlers) {
  const source = new EventSource(`${askUrl}?query=${encodeURIComponent(query)}&streaming=true`);
  let complete = false;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    source.close();
    handlers.done(complete);
  };
  source.onmessage = (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (!message || typeof message !== 'object') return;
    if (message.message_type === 'complete') {
      complete = true;
      finish();
      return;
    }
    if (!Array.isArray(message.content)) return;
    for (const item of message.content) {
      if (item && item.type === 'text' && typeof item.text === 'string') handlers.text(item.text);
      else if (item && item.type === 'resource' && item.resource) {
        const data = item.resource.data;
        for (const entry of Array.isArray(data) ? data : [data]) handlers.result(entry);
      }
    }
  };
  source.onerror = finish;
  return () => {
    finished = true;
    source.close();
  };
}

/**
 * One search box with its status line, correction line and result list; `onStart` runs before
 * each search. `askUrl` is the /ask endpoint (another origin's for the embed).
 */
export function liveSearch({ input, list, status, correction, onStart, onDone, askUrl = '/ask' }) {
  let stop = null;
  let timer = 0;

  const run = (query) => {
    // A search run now (Enter) replaces one still waiting for the typing pause.
    clearTimeout(timer);
    if (stop) stop();
    onStart(query);
    list.replaceChildren();
    status.textContent = say('searching');
    let count = 0;
    let summary = '';
    // The query the results are for: the corrected one, never the misspelling.
    let shown = query;
    stop = streamAsk(askUrl, query, {
      // People see the correction the answer's text names, whether the match is weak, and the
      // text itself only when nothing matched.
      text(text) {
        if (summary !== '') return;
        summary = text;
        const corrected = correctionOf(text);
        if (corrected) shown = corrected.query;
        correction.textContent = corrected ? say('showingResultsFor', { query: corrected.query }) : '';
        correction.hidden = !corrected;
      },
      result(data) {
        const item = resultItem(data);
        if (!item) return;
        list.append(item);
        count += 1;
      },
      done(ok) {
        stop = null;
        const rest = correctionOf(summary)?.rest ?? summary;
        if (!ok) status.textContent = say('liveSearchUnavailable');
        // "No page on … matches … well", in the answer's language.
        else if (count > 0 && weakMatches().some((m) => rest.startsWith(m.start) && rest.endsWith(m.end)))
          status.textContent = say('noPageMatches', { query: shown });
        else if (count > 0)
          status.textContent = say(count === 1 ? 'oneResultFor' : 'resultsFor', { count, query: shown });
        else status.textContent = summary || say('noPagesMatched');
        onDone(ok, count);
      },
    });
  };

  const schedule = () => {
    clearTimeout(timer);
    const query = input.value.trim();
    if (query.length < MIN_QUERY_LENGTH) {
      if (stop) stop();
      stop = null;
      correction.hidden = true;
      return false;
    }
    timer = setTimeout(() => run(query), DEBOUNCE_MS);
    return true;
  };

  return { run, schedule, cancel: () => (stop ? stop() : undefined) };
}

/** Arrow keys move between the result links; ArrowUp from the first goes back to the box. */
export function arrowNavigation(input, list) {
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown') return;
    const first = list.querySelector('a');
    if (!first) return;
    event.preventDefault();
    first.focus();
  });
  list.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const links = [...list.querySelectorAll('a')];
    const index = links.indexOf(document.activeElement);
    if (index === -1) return;
    event.preventDefault();
    if (event.key === 'ArrowDown') (links[index + 1] ?? links[index]).focus();
    else if (index === 0) input.focus();
    else links[index - 1].focus();
  });
}

export function correctionLine() {
  const line = document.createElement('p');
  line.className = 'live-correction';
  line.hidden = true;
  return line;
}

/**
 * A search box whose results open in a panel below it (the header box, the embed): `allResults`
 * gives the address of the full results page for a query, or null when there is none; `askUrl`
 * is the /ask endpoint.
 */
export function setUpLiveBox(form, { askUrl = '/ask', allResults = null } = {}) {
  const input = form.querySelector('input[name="q"]');
  const panel = form.querySelector('[data-live-results]');
  if (!input || !panel) return;
  const status = document.createElement('p');
  status.className = 'live-status';
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  const correction = correctionLine();
  const list = document.createElement('ol');
  list.className = 'results-list';
  list.setAttribute('aria-label', say('searchResults'));
  const all = document.createElement('a');
  all.className = 'live-all';
  all.textContent = say('seeAllResults');
  panel.replaceChildren(status, correction, list, ...(allResults ? [all] : []));
  input.setAttribute('aria-controls', panel.id || (panel.id = 'header-live-results'));

  const close = () => {
    panel.hidden = true;
  };
  const open = () => {
    panel.hidden = false;
  };

  const search = liveSearch({
    input,
    list,
    status,
    correction,
    askUrl,
    onStart(query) {
      if (allResults) all.href = allResults(query);
      open();
    },
    onDone() {},
  });

  input.addEventListener('input', () => {
    if (!search.schedule()) close();
  });
  input.addEventListener('focus', () => {
    if (list.childElementCount > 0 && input.value.trim().length >= MIN_QUERY_LENGTH) open();
  });
  arrowNavigation(input, list);
  form.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || panel.hidden) return;
    event.preventDefault();
    close();
    input.focus();
  });
  form.addEventListener('focusout', (event) => {
    if (!form.contains(event.relatedTarget)) close();
  });
  return { run: search.run };
}
