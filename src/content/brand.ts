/**
 * The `brand`, `navigation` and `footer` keys of `_site.yaml`: what makes the site look like its
 * company and what its menus hold. Each value is checked here (colours for WCAG AA contrast, file
 * names for staying inside the content folder, fonts for being a plain font list), so the templates
 * and the generated stylesheet only ever see safe values.
 */

import { contrastRatio, hexOf, parseHexColour, passingAlternative, type Rgb } from './colour.js';
import type { Brand, BrandColours, BrandImage, FooterColumn, NavLink } from './types.js';

/** Reports a problem at a key path inside `_site.yaml` (`['brand', 'colours', 'link']`). */
export type ReportAt = (path: (string | number)[], message: string, severity: 'error' | 'warning') => void;

/** A calm slate-blue palette that passes AA in every pair, for a site that names no colours. */
export const DEFAULT_COLOURS: BrandColours = {
  text: '#1d2733',
  background: '#ffffff',
  primary: '#2f4f7f',
  buttonText: '#ffffff',
  link: '#2a55a0',
  accent: '#e2a93b',
};

export const DEFAULT_FONT_STACK =
  "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', 'Noto Sans', 'Liberation Sans', Arial, sans-serif";

export function defaultBrand(): Brand {
  return {
    logo: null,
    colours: { ...DEFAULT_COLOURS },
    fonts: { body: DEFAULT_FONT_STACK, headings: DEFAULT_FONT_STACK },
    favicon: null,
    socialImage: null,
    hero: null,
  };
}

/** WCAG 2.x AA for body-size text. */
export const AA_RATIO = 4.5;

/**
 * The pairs a visitor reads, in the order they are checked; `adjust` is the colour an alternative
 * is proposed for (the text colour, except the button, where the brand colour itself must change
 * when white or black text cannot sit on it).
 */
const CONTRAST_PAIRS: readonly {
  label: string;
  foreground: keyof BrandColours;
  background: keyof BrandColours;
  adjust: 'foreground' | 'background';
}[] = [
  { label: 'text on background', foreground: 'text', background: 'background', adjust: 'foreground' },
  { label: 'link on background', foreground: 'link', background: 'background', adjust: 'foreground' },
  { label: 'button text on primary', foreground: 'buttonText', background: 'primary', adjust: 'background' },
  // Secondary buttons and the current menu entry write the primary colour on the page.
  { label: 'primary on background', foreground: 'primary', background: 'background', adjust: 'foreground' },
];

const COLOUR_KEYS: readonly (keyof BrandColours)[] = [
  'text',
  'background',
  'primary',
  'buttonText',
  'link',
  'accent',
];
const IMAGE_EXTENSIONS = ['svg', 'png', 'jpg', 'jpeg', 'webp', 'gif', 'avif', 'ico'];
/**
 * One family of a font list, as CSS writes it: a quoted name (no quote, backslash or line break
 * inside) or unquoted words of letters, digits, `_` and `-`. A list is such families joined by
 * commas, so a value can never close its string, its declaration (`;`, `}`), open a comment (`/*`)
 * or hold markup (`<`) in brand.css.
 */
const FONT_FAMILY =
  /^(?:"[\p{L}\p{N} _.&+-]+"|'[\p{L}\p{N} _.&+-]+'|[\p{L}_-][\p{L}\p{N}_-]*(?: [\p{L}\p{N}_-]+)*)$/u;
/** Longest font list and most families in it: a real stack has under ten (DEFAULT_FONT_STACK: 9). */
const MAX_FONT_LIST = 300;
const MAX_FONT_FAMILIES = 20;

/** Whether `list` is a font list brand.css may carry (see FONT_FAMILY). */
export function isFontList(list: string): boolean {
  if (list.length > MAX_FONT_LIST) return false;
  const families = list.split(',').map((family) => family.trim());
  return families.length <= MAX_FONT_FAMILIES && families.every((family) => FONT_FAMILY.test(family));
}

/** Most links in one menu (the navigation, or one footer column) and most footer columns. */
export const MAX_MENU_LINKS = 50;
export const MAX_FOOTER_COLUMNS = 12;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);
}

/**
 * A label, title or alternative text as written, on one line: white space collapsed, and the other
 * control characters (NUL, DEL, C1), which no label shows and HTML does not allow, dropped.
 */
function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const shown = value
    .replace(/\s+/g, ' ')
    .replace(/\p{Cc}/gu, '')
    .trim();
  return shown === '' ? null : shown;
}

/**
 * A file named in the configuration: relative to the content folder, inside it, a picture. The
 * file's existence is checked by the loader, which knows the folder.
 */
export function brandFileProblem(file: string): string | null {
  if (file.startsWith('/') || /^[a-z]:/i.test(file) || file.includes('\\'))
    return `"${file}" must be a path inside the content folder, relative to it, such as brand/logo.svg`;
  if (file.split('/').some((segment) => segment === '..' || segment === '.' || segment === ''))
    return `"${file}" must be a plain path inside the content folder (no "..", "." or empty parts), such as brand/logo.svg`;
  const extension = file.slice(file.lastIndexOf('.') + 1).toLowerCase();
  if (!file.includes('.') || !IMAGE_EXTENSIONS.includes(extension))
    return `"${file}" must be a picture (${IMAGE_EXTENSIONS.join(', ')})`;
  return null;
}

/** Every file the brand names, for the loader to check and the server to serve. */
export function brandFiles(brand: Brand): string[] {
  const files = [brand.logo?.file, brand.favicon ?? undefined, brand.socialImage?.file, brand.hero?.file];
  return [...new Set(files.filter((file): file is string => file !== undefined))].sort();
}

/**
 * `logo: brand/logo.svg` or `logo: { file, alt, showName }`; `alt` defaults to `defaultAlt`
 * (for the logo, the site's name; for the hero, '' = decorative).
 */
function readImage(
  value: unknown,
  path: string[],
  defaultAlt: string,
  report: ReportAt,
): (BrandImage & { showName: boolean }) | null {
  if (value === undefined || value === null) return null;
  const fields = typeof value === 'string' ? { file: value } : isRecord(value) ? value : null;
  const file = fields ? text(fields.file) : null;
  if (fields === null || file === null) {
    report(
      path,
      `\`${path.join('.')}\` must be a file name (brand/logo.svg) or { file: brand/logo.svg, alt: "…" }; it is ignored`,
      'warning',
    );
    return null;
  }
  const problem = brandFileProblem(file);
  if (problem !== null) {
    report(path, `\`${path.join('.')}\`: ${problem}; it is ignored`, 'warning');
    return null;
  }
  const alt = fields.alt === undefined || fields.alt === null ? defaultAlt : String(fields.alt).trim();
  const showName = fields.showName === undefined ? true : fields.showName === true;
  if (fields.showName !== undefined && typeof fields.showName !== 'boolean')
    report(
      [...path, 'showName'],
      `\`${path.join('.')}.showName\` must be true or false; true is used`,
      'warning',
    );
  return { file, alt, showName };
}

function readColours(value: unknown, report: ReportAt): BrandColours {
  const colours = { ...DEFAULT_COLOURS };
  if (value === undefined || value === null) return colours;
  if (!isRecord(value)) {
    report(
      ['brand', 'colours'],
      '`brand.colours` must be a mapping such as { primary: "#0b5c59" }; the default colours are used',
      'warning',
    );
    return colours;
  }
  for (const key of Object.keys(value).sort()) {
    const path = ['brand', 'colours', key];
    if (!(COLOUR_KEYS as readonly string[]).includes(key)) {
      report(path, `unknown colour \`${key}\` is ignored (known: ${COLOUR_KEYS.join(', ')})`, 'warning');
      continue;
    }
    const parsed = typeof value[key] === 'string' ? parseHexColour(value[key]) : null;
    if (parsed === null)
      report(
        path,
        `\`brand.colours.${key}\` must be a colour written #rrggbb (quoted in YAML: "#0b5c59"); the default ${DEFAULT_COLOURS[key as keyof BrandColours]} is used`,
        'warning',
      );
    else colours[key as keyof BrandColours] = hexOf(parsed);
  }
  return colours;
}

/**
 * Each pair a visitor reads must reach AA (4.5:1). A failing pair is an error naming the pair,
 * its ratio and the nearest passing colour, and the site is served with that colour meanwhile,
 * so no visitor gets unreadable text while the owner fixes the file.
 */
export function checkContrast(
  colours: BrandColours,
  report: (colourKey: keyof BrandColours, message: string) => void,
): BrandColours {
  const checked = { ...colours };
  for (const pair of CONTRAST_PAIRS) {
    const foreground = parseHexColour(checked[pair.foreground])!;
    const background = parseHexColour(checked[pair.background])!;
    const ratio = contrastRatio(foreground, background);
    if (ratio >= AA_RATIO) continue;
    const [changed, fixed]: [keyof BrandColours, Rgb] =
      pair.adjust === 'foreground'
        ? [pair.foreground, passingAlternative(foreground, background, AA_RATIO)]
        : [pair.background, passingAlternative(background, foreground, AA_RATIO)];
    const alternative = hexOf(fixed);
    const passing = contrastRatio(
      pair.adjust === 'foreground' ? fixed : foreground,
      pair.adjust === 'foreground' ? background : fixed,
    );
    report(
      changed,
      `${pair.label} (${checked[pair.foreground]} on ${checked[pair.background]}) has a contrast of ${ratio.toFixed(2)}:1, below the 4.5:1 WCAG AA asks for text; use ${changed}: "${alternative}" (${passing.toFixed(2)}:1), which is served until the file is fixed`,
    );
    checked[changed] = alternative;
  }
  return checked;
}

function readFonts(value: unknown, report: ReportAt): Brand['fonts'] {
  const fonts = { body: DEFAULT_FONT_STACK, headings: DEFAULT_FONT_STACK };
  if (value === undefined || value === null) return fonts;
  const fields = typeof value === 'string' ? { body: value } : isRecord(value) ? value : null;
  if (fields === null) {
    report(
      ['brand', 'fonts'],
      '`brand.fonts` must be a font list ("Inter, Arial, sans-serif") or { body: …, headings: … }; the system fonts are used',
      'warning',
    );
    return fonts;
  }
  for (const key of ['body', 'headings'] as const) {
    const list = text(fields[key]);
    if (list === null) continue;
    if (!isFontList(list))
      report(
        typeof value === 'string' ? ['brand', 'fonts'] : ['brand', 'fonts', key],
        `\`brand.fonts\` "${list}" must be a list of font names separated by commas, such as "Inter, Arial, sans-serif"; the system fonts are used`,
        'warning',
      );
    else fonts[key] = list;
  }
  if (text(fields.headings) === null) fonts.headings = fonts.body;
  return fonts;
}

const BRAND_KEYS = ['logo', 'colours', 'colors', 'fonts', 'favicon', 'socialImage', 'hero'];

/** `brand:` → the Brand, with defaults for whatever is missing or wrong. */
export function readBrand(value: unknown, siteName: string, report: ReportAt): Brand {
  const brand = defaultBrand();
  if (value === undefined || value === null) return brand;
  if (!isRecord(value)) {
    report(
      ['brand'],
      '`brand` must be a mapping (logo, colours, fonts, favicon, socialImage, hero); it is ignored',
      'warning',
    );
    return brand;
  }
  for (const key of Object.keys(value).sort())
    if (!BRAND_KEYS.includes(key))
      report(
        ['brand', key],
        `unknown key \`brand.${key}\` is ignored (known: ${BRAND_KEYS.join(', ')})`,
        'warning',
      );
  brand.logo = readImage(value.logo, ['brand', 'logo'], siteName, report);
  const colourKey = value.colours !== undefined ? 'colours' : 'colors';
  brand.colours = checkContrast(readColours(value[colourKey], report), (changed, message) =>
    report(['brand', colourKey, changed], message, 'error'),
  );
  brand.fonts = readFonts(value.fonts, report);
  const favicon = readImage(value.favicon, ['brand', 'favicon'], '', report);
  brand.favicon = favicon?.file ?? null;
  const social = readImage(value.socialImage, ['brand', 'socialImage'], siteName, report);
  brand.socialImage = social && { file: social.file, alt: social.alt };
  const hero = readImage(value.hero, ['brand', 'hero'], '', report);
  brand.hero = hero && { file: hero.file, alt: hero.alt };
  return brand;
}

/**
 * Never in a menu link: control characters (`/\t/evil.example` is `//evil.example` to a browser,
 * which drops tabs and line breaks from addresses), line separators, and backslashes (`/\evil.example`
 * is `//evil.example` too).
 */
const UNSAFE_IN_LINK = /[\p{Cc}\u2028\u2029\\]/u;

/**
 * A link's address: a site path (`/pricing`, not the protocol-relative `//host`) or an http(s) or
 * mailto address; anything else (`javascript:`, `data:`, a relative path) is null.
 */
export function linkUrl(value: string): string | null {
  if (UNSAFE_IN_LINK.test(value)) return null;
  if (value.startsWith('/')) return value.startsWith('//') ? null : value;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' || url.protocol === 'mailto:' ? value : null;
  } catch {
    return null;
  }
}

function readLinks(value: unknown, path: (string | number)[], report: ReportAt): NavLink[] | null {
  const name = path.join('.');
  if (!Array.isArray(value)) {
    report(
      path,
      `\`${name}\` must be a list of links (- /pricing, or - { label: Pricing, url: /pricing }); it is ignored`,
      'warning',
    );
    return null;
  }
  if (value.length > MAX_MENU_LINKS)
    report(
      [...path, MAX_MENU_LINKS],
      `\`${name}\` has ${value.length} links, more than the ${MAX_MENU_LINKS} a menu may hold; the first ${MAX_MENU_LINKS} are used`,
      'warning',
    );
  const links: NavLink[] = [];
  value.slice(0, MAX_MENU_LINKS).forEach((entry: unknown, index) => {
    const fields = typeof entry === 'string' ? { url: entry } : isRecord(entry) ? entry : {};
    // Checked as written: collapsing white space first would turn a tab into a harmless-looking space.
    const target = typeof fields.url === 'string' ? fields.url.trim() : null;
    const url = target === null || target === '' ? null : linkUrl(target);
    if (url === null) {
      report(
        [...path, index],
        `\`${name}\` entry ${index + 1} needs a url that is a site path (/pricing) or a web address (https://…), without control characters or backslashes; it is left out`,
        'warning',
      );
      return;
    }
    links.push({ label: text(fields.label) ?? '', url });
  });
  return links;
}

/** `navigation:` → the header's links; null (derived from the content) when not given. */
export function readNavigation(value: unknown, report: ReportAt): NavLink[] | null {
  if (value === undefined || value === null) return null;
  return readLinks(value, ['navigation'], report);
}

/** `footer:` → columns `{ title, links }`; null (derived from the content) when not given. */
export function readFooter(value: unknown, report: ReportAt): FooterColumn[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) {
    report(
      ['footer'],
      '`footer` must be a list of columns (- title: Company, links: [ /about, /contact ]); it is ignored',
      'warning',
    );
    return null;
  }
  if (value.length > MAX_FOOTER_COLUMNS)
    report(
      ['footer', MAX_FOOTER_COLUMNS],
      `\`footer\` has ${value.length} columns, more than the ${MAX_FOOTER_COLUMNS} a footer may hold; the first ${MAX_FOOTER_COLUMNS} are used`,
      'warning',
    );
  const columns: FooterColumn[] = [];
  value.slice(0, MAX_FOOTER_COLUMNS).forEach((entry: unknown, index) => {
    const title = isRecord(entry) ? text(entry.title) : null;
    if (!isRecord(entry) || title === null) {
      report(
        ['footer', index],
        `footer column ${index + 1} needs a title and links; it is left out`,
        'warning',
      );
      return;
    }
    const links = readLinks(entry.links, ['footer', index, 'links'], report);
    if (links !== null) columns.push({ title, links });
  });
  return columns;
}
