// The scripts' own words in the page's language, from the server's catalogue: the page's
// #frontdoor-words (src/site/script-words.ts), or the embed's /embed/words.json (frontdoor.js).
let given = null;

export function useWords(value) {
  given = { say: {}, corrections: [], weakMatches: [], ...value };
}

function words() {
  if (given === null) {
    try {
      useWords(JSON.parse(document.getElementById('frontdoor-words')?.textContent ?? '{}'));
    } catch {
      useWords({});
    }
  }
  return given;
}

/** The words for `key`, `{name}` placeholders filled from `values`. */
export function say(key, values = {}) {
  return `${words().say[key] ?? ''}`.replace(/\{(\w+)\}/g, (whole, name) =>
    name in values ? String(values[name]) : whole,
  );
}

/** "Showing results for “{query}”" in every language an answer may say it in. */
export const corrections = () => words().corrections;

/** The same for "No page on … well": each language's fixed start and end. */
export const weakMatches = () => words().weakMatches;
