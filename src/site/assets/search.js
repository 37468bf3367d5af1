// The site's own search boxes: the header box (results in a panel, with a link to the results
// page) and the search page (results in the page). The live search itself is live-search.js,
// shared with the embeddable <frontdoor-search>.
import { arrowNavigation, correctionLine, liveSearch, setUpLiveBox } from './live-search.js';
import { say } from './words.js';

function setUpSearchPage(form) {
  const input = form.querySelector('input[name="q"]');
  const results = document.querySelector('[data-search-results]');
  const status = results && results.querySelector('[data-search-status]');
  const list = results && results.querySelector('[data-search-list]');
  if (!input || !status || !list) return;
  const siteName = document.querySelector('meta[property="og:site_name"]')?.content ?? '';
  let live = true;
  const correction = results.querySelector('[data-search-correction]') ?? correctionLine();
  if (!correction.isConnected) status.after(correction);

  const search = liveSearch({
    input,
    list,
    status,
    correction,
    onStart(query) {
      history.replaceState(null, '', `/search?q=${encodeURIComponent(query)}`);
      document.title = `${say('searchTitle', { query })}${siteName ? ` | ${siteName}` : ''}`;
    },
    onDone(ok) {
      // Without a working stream the form falls back to the server-rendered results page.
      live = ok;
    },
  });

  input.addEventListener('input', () => {
    if (live) search.schedule();
  });
  form.addEventListener('submit', (event) => {
    const query = input.value.trim();
    if (!live || query === '') return;
    event.preventDefault();
    search.run(query);
  });
  arrowNavigation(input, list);
}

const resultsPage = (query) => `/search?q=${encodeURIComponent(query)}`;
for (const form of document.querySelectorAll('form[data-live-search]'))
  setUpLiveBox(form, { allResults: resultsPage });
for (const form of document.querySelectorAll('form[data-search-page]')) setUpSearchPage(form);
