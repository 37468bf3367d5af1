/**
 * `_site.yaml`: the company details every template and discovery document uses. Missing or wrong
 * keys fall back to defaults derived from the content (the home page) and are reported.
 */

import { isMap, isScalar, LineCounter } from 'yaml';
import type { LineProblem } from './front-matter.js';
import { collapseWhitespace } from './markdown.js';
import type { SiteInfo } from './types.js';
import { defaultBrand, linkUrl, readBrand, readFooter, readNavigation } from './brand.js';
import { languageTag } from '../language/index.js';
import { SITE_INFO_FILE } from './read.js';
import { parseContentYaml } from './yaml-bounds.js';

export { SITE_INFO_FILE };

/** What the defaults are derived from when `_site.yaml` does not say. */
export interface SiteInfoFallback {
  /** The home page's title, or the content folder's name when there is no home page. */
  name: string;
  /** The home page's description, or ''. */
  description: string;
}

const TEXT_KEYS = [
  'name',
  'legalName',
  'tagline',
  'description',
  'contactEmail',
  'salesEmail',
  'address',
] as const;
// `forms` is read by forms-config.ts, at start-up.
const KNOWN_KEYS: ReadonlySet<string> = new Set([
  ...TEXT_KEYS,
  'foundingYear',
  'sameAs',
  'language',
  'brand',
  'navigation',
  'footer',
  'forms',
]);
/**
 * Most problems reported for the file: a file of 20,000 unknown keys or broken links is one
 * mistake repeated, and its report must stay readable (and its line look-ups few).
 */
export const MAX_SITE_INFO_PROBLEMS = 50;
const PLAIN_ADDRESS = /^[^\s@,<>"]+@[^\s@,<>"]+\.[^\s@,<>"]+$/;

/** The details used for whatever `_site.yaml` does not give. */
export function defaultSiteInfo(fallback: SiteInfoFallback): SiteInfo {
  return {
    name: fallback.name,
    legalName: fallback.name,
    tagline: '',
    description: fallback.description,
    contactEmail: '',
    salesEmail: '',
    address: '',
    foundingYear: null,
    sameAs: [],
    language: null,
    brand: defaultBrand(),
    navigation: null,
    footer: null,
  };
}

/**
 * Parses `_site.yaml` (text null = the file does not exist). A YAML error makes the whole file
 * unusable (an error; defaults are used); a missing or wrong key is a warning.
 */
export function readSiteInfo(
  text: string | null,
  fallback: SiteInfoFallback,
): { info: SiteInfo; problems: LineProblem[] } {
  const problems: LineProblem[] = [];
  const defaults = defaultSiteInfo(fallback);
  if (text === null) {
    problems.push({
      line: null,
      message: `there is no ${SITE_INFO_FILE}: the site is named "${fallback.name}" and has no contact details; create the file with name, legalName, tagline, description, contactEmail, salesEmail, address, foundingYear and sameAs`,
      severity: 'warning',
    });
    return { info: defaults, problems };
  }

  const lineCounter = new LineCounter();
  const document = parseContentYaml(text.replace(/^\uFEFF/, ''), lineCounter);
  const lineOf = (position: number) => lineCounter.linePos(position).line;
  for (const error of document.errors.slice(0, MAX_SITE_INFO_PROBLEMS))
    problems.push({
      line: lineOf(error.pos[0]),
      message: `not valid YAML, so defaults are used: ${error.message.split('\n')[0]}`,
      severity: 'error',
    });
  if (document.errors.length > 0)
    return { info: defaults, problems: capped(problems, document.errors.length) };

  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    problems.push({
      line: 1,
      message: `cannot be read, so defaults are used: ${error instanceof Error ? error.message : String(error)}`,
      severity: 'error',
    });
    return { info: defaults, problems };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data) || data instanceof Date) {
    problems.push({
      line: 1,
      message: 'must be a mapping of keys to values ("name: Example Ltd"), so defaults are used',
      severity: 'error',
    });
    return { info: defaults, problems };
  }
  const values = data as Record<string, unknown>;
  const keyLines = new Map<string, number>();
  if (isMap(document.contents))
    for (const pair of document.contents.items)
      if (isScalar(pair.key) && pair.key.range)
        keyLines.set(String(pair.key.value), lineOf(pair.key.range[0]));
  // Past the cap a problem is only counted: working out its line may walk the document.
  let uncounted = 0;
  const room = (): boolean => {
    if (problems.length < MAX_SITE_INFO_PROBLEMS) return true;
    uncounted += 1;
    return false;
  };
  const warn = (key: string, message: string) => {
    if (room()) problems.push({ line: keyLines.get(key) ?? null, message, severity: 'warning' });
  };

  const info: SiteInfo = { ...defaults };
  for (const key of TEXT_KEYS) {
    const value = values[key];
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
      const fallbackNote = info[key] === '' ? 'it is left empty' : `"${info[key]}" is used`;
      warn(key, `\`${key}\` is missing: ${fallbackNote}`);
    } else if (typeof value !== 'string') {
      warn(key, `\`${key}\` must be text; it is ignored`);
    } else {
      // Control characters other than white space (NUL, DEL, C1) show as nothing and HTML forbids them.
      info[key] = collapseWhitespace(value.replace(/[^\P{Cc}\s]/gu, ''));
    }
  }
  // A legal name defaults to the configured name, not to the fallback.
  if (typeof values.legalName !== 'string' || values.legalName.trim() === '') info.legalName = info.name;
  for (const key of ['contactEmail', 'salesEmail'] as const)
    if (info[key] !== '' && !PLAIN_ADDRESS.test(info[key])) {
      warn(key, `\`${key}\` "${info[key]}" is not an e-mail address; it is ignored`);
      info[key] = '';
    }

  const year = values.foundingYear;
  if (year !== undefined && year !== null) {
    if (typeof year === 'number' && Number.isInteger(year) && year >= 1000 && year <= 9999)
      info.foundingYear = year;
    else warn('foundingYear', '`foundingYear` must be a four-digit year such as 2019; it is ignored');
  }

  const language = values.language;
  if (language !== undefined && language !== null) {
    const tag = typeof language === 'string' ? languageTag(language) : null;
    if (tag === null)
      warn('language', '`language` must be a BCP 47 language tag such as en, de or pt-BR; it is ignored');
    else info.language = tag;
  }

  const sameAs = values.sameAs;
  if (Array.isArray(sameAs)) {
    for (const entry of sameAs) {
      // The menus' rule too: the URL parser drops tabs and line breaks that the stored text would keep.
      if (typeof entry === 'string' && isAbsoluteWebUrl(entry) && linkUrl(entry) !== null)
        info.sameAs.push(entry);
      else
        warn(
          'sameAs',
          `\`sameAs\` entry ${JSON.stringify(entry)} is not a web address (https://…); it is ignored`,
        );
    }
  } else if (sameAs !== undefined && sameAs !== null) {
    warn('sameAs', '`sameAs` must be a list of profile URLs (https://…); it is ignored');
  }

  // Nested keys are reported at their own line (`brand.colours.link`), else at the nearest parent's.
  const lineOfPath = (path: (string | number)[]): number | null => {
    for (let length = path.length; length > 0; length--) {
      const node = document.getIn(path.slice(0, length), true) as { range?: [number, number] } | undefined;
      if (node?.range) return lineOf(node.range[0]);
    }
    return keyLines.get(String(path[0])) ?? null;
  };
  const reportAt = (path: (string | number)[], message: string, severity: 'error' | 'warning') => {
    if (room()) problems.push({ line: lineOfPath(path), message, severity });
  };
  info.brand = readBrand(values.brand, info.name, reportAt);
  info.navigation = readNavigation(values.navigation, reportAt);
  info.footer = readFooter(values.footer, reportAt);

  for (const key of Object.keys(values).sort())
    if (!KNOWN_KEYS.has(key))
      warn(key, `unknown key \`${key}\` is ignored (known keys: ${[...KNOWN_KEYS].join(', ')})`);
  return { info, problems: capped(problems, problems.length + uncounted) };
}

/** The first MAX_SITE_INFO_PROBLEMS problems, and a last one saying how many more there were. */
function capped(problems: LineProblem[], total: number): LineProblem[] {
  if (total <= MAX_SITE_INFO_PROBLEMS) return problems;
  const kept = problems.slice(0, MAX_SITE_INFO_PROBLEMS);
  kept.push({
    line: null,
    message: `and ${total - kept.length} more problems like these, not listed: correct the ones above and check again`,
    severity: kept.some((problem) => problem.severity === 'error') ? 'error' : 'warning',
  });
  return kept;
}

function isAbsoluteWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
