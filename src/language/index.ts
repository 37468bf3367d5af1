/**
 * Languages: BCP 47 tags as content and requests write them, a page's language from its folder,
 * and the language of a text from its script and, for scripts several languages share, the eld
 * detector (measured against tinyld and franc-min on the javascript.info translations: the most
 * accurate of the three on both whole texts and titles, and the fastest; docs/multilingual.md).
 * Content and search both use it; pure and synchronous.
 */

import { eld } from 'eld/small';

/**
 * Longest tag read: RFC 5646 (4.4.1) asks every implementation to take tags of 35 characters
 * (`zh-Hant-TW-u-ca-chinese` is 23); a private-use tag could otherwise run to thousands of
 * characters into `<html lang>`, headers and every answer.
 */
export const MAX_LANGUAGE_TAG_LENGTH = 35;

/** The canonical form of a BCP 47 tag ("pt-br" → "pt-BR"), or null when it is not one. */
export function languageTag(value: string): string | null {
  const trimmed = value.trim().replace(/_/g, '-');
  if (trimmed === '' || trimmed.length > MAX_LANGUAGE_TAG_LENGTH) return null;
  try {
    const [tag] = Intl.getCanonicalLocales(trimmed);
    return tag ?? null;
  } catch {
    return null;
  }
}

/** The primary language subtag, lowercase: "pt-BR" → "pt", "zh-Hans" → "zh". */
export function primaryLanguage(tag: string): string {
  const dash = tag.indexOf('-');
  return (dash < 0 ? tag : tag.slice(0, dash)).toLowerCase();
}

const NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** Top folder name → its language (or null), as folderLanguage tells it. */
const folderLanguages = new Map<string, string | null>();

/**
 * The language a top folder names ("de", "ja", "pt-br", "zh-hans"), or null. Only a two-letter
 * primary subtag that ICU knows counts: "api", "js" or "docs" are folders, not languages.
 */
export function folderLanguage(sourcePath: string): string | null {
  const slash = sourcePath.indexOf('/');
  if (slash < 0) return null;
  const folder = sourcePath.slice(0, slash);
  let language = folderLanguages.get(folder);
  if (language === undefined) {
    const tag = languageTag(folder);
    language = tag === null || !/^[a-z]{2}(?:-|$)/.test(tag) || NAMES.of(tag) === undefined ? null : tag;
    // A site has few top folders; telling one costs ICU calls (and an exception for most names).
    if (folderLanguages.size >= 10_000) folderLanguages.clear();
    folderLanguages.set(folder, language);
  }
  return language;
}

/** The name of a language in that language ("de" → "Deutsch"), for a language switch. */
export function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames([tag], { type: 'language', fallback: 'none' }).of(tag);
    return name === undefined ? tag : name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
  } catch {
    return tag;
  }
}

const HANGUL_RE = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/u;
const KANA_RE = /[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/u;
const HAN_RE = /\p{Script=Han}/u;
const THAI_RE = /\p{Script=Thai}/u;
const LETTER_RE = /\p{L}/u;
/** Code, URLs and numbers say nothing of a text's language. */
const NOISE_RE = /`[^`]*`|https?:\/\/\S+|[\p{N}_#*>|[\]()<>{}=/\\-]+/gu;

/** Longest sample of a text the detector reads: enough for a paragraph, cheap for a whole site. */
const SAMPLE_LENGTH = 200;

/**
 * The language of a text as a primary subtag ("en", "ja"), or null when it cannot tell (no
 * letters, or too little text). Scripts that only one language writes decide first (Hangul →
 * ko, kana → ja, Han → zh, Thai → th); otherwise eld reads at most SAMPLE_LENGTH characters.
 */
export function detectLanguage(text: string): string | null {
  const sample = text
    .slice(0, SAMPLE_LENGTH * 2)
    .replace(NOISE_RE, ' ')
    .slice(0, SAMPLE_LENGTH);
  if (!LETTER_RE.test(sample)) return null;
  if (HANGUL_RE.test(sample)) return 'ko';
  if (KANA_RE.test(sample)) return 'ja';
  if (HAN_RE.test(sample) && hanShare(sample) >= 0.2) return 'zh';
  if (THAI_RE.test(sample)) return 'th';
  const found = eld.detect(sample).language;
  return found === '' ? null : found;
}

/** Share of the letters that are Han characters (a Chinese term in a Latin text is not Chinese). */
function hanShare(text: string): number {
  let han = 0;
  let letters = 0;
  for (const ch of text) {
    if (!LETTER_RE.test(ch)) continue;
    letters++;
    if (HAN_RE.test(ch)) han++;
  }
  return letters === 0 ? 0 : han / letters;
}

/**
 * The language a text's script alone tells among the candidates (Hangul → ko, kana → ja, Han →
 * zh, else ja, Thai → th), or null when its script is one several languages write (Latin,
 * Cyrillic) or none of the candidates writes it.
 */
export function scriptLanguageAmong(text: string, candidates: readonly string[]): string | null {
  const has = (code: string): boolean => candidates.includes(code);
  if (HANGUL_RE.test(text) && has('ko')) return 'ko';
  if (KANA_RE.test(text) && has('ja')) return 'ja';
  if (HAN_RE.test(text)) {
    if (has('zh')) return 'zh';
    if (has('ja')) return 'ja';
  }
  if (THAI_RE.test(text) && has('th')) return 'th';
  return null;
}

/**
 * How much of an `Accept-Language` header is read: its first 2 KB and, of those, its first 32
 * ranges. Browsers send under ten; a header of thousands of ranges would otherwise cost a
 * canonicalisation each on every request.
 */
export const ACCEPT_LANGUAGE_MAX_CHARACTERS = 2048;
export const ACCEPT_LANGUAGE_MAX_RANGES = 32;
/** Longest range read as a tag (RFC 5646 asks implementations to take at least 35 characters). */
const MAX_RANGE_LENGTH = 35;

/**
 * The languages an `Accept-Language` header asks for (RFC 9110 12.5.4), as canonical tags, most
 * wanted first (by q, then by place); `*`, tags that are not BCP 47 and q=0 are left out. Only
 * the header's beginning is read (ACCEPT_LANGUAGE_MAX_CHARACTERS, ACCEPT_LANGUAGE_MAX_RANGES).
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (header === undefined || header === '') return [];
  const ranged: { tag: string; q: number; at: number }[] = [];
  let read = header.slice(0, ACCEPT_LANGUAGE_MAX_CHARACTERS);
  // A range cut in two ("en-GB" → "en-G") is not read as another language.
  if (read.length < header.length) read = read.slice(0, Math.max(0, read.lastIndexOf(',')));
  const parts = read.split(',', ACCEPT_LANGUAGE_MAX_RANGES);
  parts.forEach((part, at) => {
    const [range = '', ...params] = part.split(';');
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
      if (match) q = Number(match[1]);
    }
    const trimmed = range.trim();
    if (q <= 0 || trimmed === '*' || trimmed.length > MAX_RANGE_LENGTH) return;
    const tag = languageTag(trimmed);
    if (tag !== null) ranged.push({ tag, q, at });
  });
  ranged.sort((a, b) => b.q - a.q || a.at - b.at);
  return [...new Set(ranged.map((r) => r.tag))];
}

/**
 * The language of a query among the languages a site has (primary subtags), or null when it
 * cannot tell. A script one of them alone writes decides; otherwise eld's scores, read only for
 * those languages (a short query is often near several: the site's languages are what matter).
 */
export function detectLanguageAmong(text: string, candidates: readonly string[]): string | null {
  if (candidates.length === 0) return null;
  if (candidates.length === 1) return candidates[0] as string;
  const byScript = scriptLanguageAmong(text, candidates);
  if (byScript !== null) return byScript;
  const sample = text.replace(NOISE_RE, ' ');
  if (!LETTER_RE.test(sample)) return null;
  const scores = eld.detect(sample).getScores();
  let best: string | null = null;
  let bestScore = 0;
  for (const code of [...candidates].sort()) {
    const score = scores[code] ?? 0;
    if (score > bestScore) {
      best = code;
      bestScore = score;
    }
  }
  return best;
}

export {
  correctedQueryOf,
  formatMessage,
  MESSAGE_LANGUAGES,
  messageLanguage,
  messagesFor,
  SHOWING_RESULTS_TEMPLATES,
  saysWeakMatch,
  WEAK_MATCH_ENDS,
  type MessageKey,
  type Messages,
} from './messages.js';
