/**
 * The multilingual questions Frontdoor misses (`npx tsx bench/multilingual-misses.ts [lang …]`),
 * to guide tuning: for each language (all seven, or those named), every question whose article is
 * not among the first three pages of the /ask answer, with the article's title and the titles of
 * the three pages answered instead. Frontdoor only, so a language takes seconds.
 */

import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { LANGUAGES, loadLanguageCase } from './multilingual.js';
import { sharedDataDir } from './paths.js';
import { frontdoorAsk } from './typing.js';

export interface Miss {
  question: string;
  /** Title of the article asked for, and its place in the answer (null: not in the first ten). */
  wanted: string;
  rank: number | null;
  /** Titles of the first three pages answered. */
  answered: string[];
}

export async function multilingualMisses(lang: string, dataDir = sharedDataDir()): Promise<Miss[]> {
  const { site, questions, targets } = await loadLanguageCase(dataDir, lang);
  const engine = frontdoorAsk(site);
  const title = (url: string): string => site.byUrl.get(url)?.title ?? url;
  const misses: Miss[] = [];
  for (let i = 0; i < questions.length; i++) {
    const found = await engine.search(questions[i] as string);
    const target = targets[i] as string;
    const at = found.indexOf(target);
    if (at >= 0 && at < 3) continue;
    misses.push({
      question: questions[i] as string,
      wanted: title(target),
      rank: at < 0 ? null : at + 1,
      answered: found.slice(0, 3).map(title),
    });
  }
  return misses;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const asked = process.argv.slice(2);
  for (const lang of asked.length > 0 ? asked : LANGUAGES) {
    const misses = await multilingualMisses(lang);
    console.log(`\n== ${lang}: ${misses.length} missed`);
    for (const m of misses) {
      console.log(`- ${m.question}`);
      console.log(`  wanted: ${m.wanted} (${m.rank === null ? 'not in the first ten' : `rank ${m.rank}`})`);
      console.log(`  answered: ${m.answered.join(' | ') || '(nothing)'}`);
    }
  }
}
