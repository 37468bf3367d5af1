import { createHash } from 'node:crypto';
import { escapeHtml } from '../text/index.js';
import {
  absoluteUrl,
  contrastRatio,
  hexOf,
  mix,
  parseHexColour,
  passingAlternative,
  readableOn,
  type Rgb,
  type Site,
} from '../content/index.js';
import type { SiteAsset } from './assets.js';

/**
 * The site's brand as served: the stylesheet of its colours and fonts (`/assets/brand.css`, the
 * policy allows no inline style), the icon drawn from its name when it names no favicon, and the
 * addresses of the pictures it names from its content folder (`/brand/<file>`). Both generated
 * files are built once per loaded site and linked with their content hash.
 */

export const BRAND_STYLESHEET = 'brand.css';
export const BRAND_ICON = 'brand-icon.svg';
/** Where a file named in the brand is served: `/brand/` + its path in the content folder. */
export const BRAND_FILE_PREFIX = '/brand/';

const generated = new WeakMap<Site, Map<string, SiteAsset>>();

function asset(name: string, contentType: string, text: string): SiteAsset {
  const body = Buffer.from(text, 'utf8');
  const version = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { name, body, contentType, version, etag: `"${version}"` };
}

/** brand.css and brand-icon.svg of this site. */
export function brandAssets(site: Site): Map<string, SiteAsset> {
  let assets = generated.get(site);
  if (assets) return assets;
  assets = new Map([
    [BRAND_STYLESHEET, asset(BRAND_STYLESHEET, 'text/css; charset=utf-8', brandStylesheet(site))],
    [BRAND_ICON, asset(BRAND_ICON, 'image/svg+xml', brandIcon(site))],
  ]);
  generated.set(site, assets);
  return assets;
}

export function brandAssetUrl(site: Site, name: typeof BRAND_STYLESHEET | typeof BRAND_ICON): string {
  return `/assets/${name}?v=${brandAssets(site).get(name)!.version}`;
}

/** `/brand/logo.svg` for the file `logo.svg` of the content folder (each segment percent-encoded). */
export function brandFileUrl(file: string): string {
  return BRAND_FILE_PREFIX + file.split('/').map(encodeURIComponent).join('/');
}

/** The picture standing for the company (JSON-LD `logo`): its logo, else its favicon, else the drawn icon. */
export function logoAddress(site: Site, publicBaseUrl: string): string {
  const { brand } = site.info;
  const path = brand.logo
    ? brandFileUrl(brand.logo.file)
    : brand.favicon
      ? brandFileUrl(brand.favicon)
      : brandAssetUrl(site, BRAND_ICON);
  return absoluteUrl(publicBaseUrl, path);
}

/** The first letter or digit of the name, for the text logo and the drawn icon. */
export function initialOf(name: string): string {
  const match = /[\p{L}\p{N}]/u.exec(name);
  return (match ? match[0] : '•').toLocaleUpperCase('en');
}

/** The brand mark when there is no logo file: the initial in a primary-coloured square. */
export function textMark(site: Site): string {
  return `<span class="brand-initial" aria-hidden="true">${escapeHtml(initialOf(site.info.name))}</span>`;
}

/** The logo as the header and the footer show it. */
export function brandMarkHtml(site: Site, place: 'header' | 'footer'): string {
  const { name, brand } = site.info;
  if (!brand.logo) return `${textMark(site)}<span class="brand-name">${escapeHtml(name)}</span>`;
  // The name beside the logo already says what its alt text would; in the footer the logo is decoration.
  const alt = place === 'footer' || (brand.logo.showName && brand.logo.alt === name) ? '' : brand.logo.alt;
  const image = `<img class="brand-logo${brand.logo.showName ? '' : ' brand-logo-wide'}" src="${escapeHtml(
    brandFileUrl(brand.logo.file),
  )}" alt="${escapeHtml(alt)}" height="32">`;
  return brand.logo.showName || place === 'footer'
    ? `${image}<span class="brand-name">${escapeHtml(name)}</span>`
    : image;
}

const DARK_GROUND: Rgb = { r: 17, g: 22, b: 27 };
const DARK_TEXT: Rgb = { r: 230, g: 235, b: 239 };

function colour(hex: string): Rgb {
  return parseHexColour(hex)!;
}

/** Keeps `foreground` readable (AA) on every ground in `grounds`. */
function readableOnAll(foreground: Rgb, grounds: Rgb[]): Rgb {
  let result = foreground;
  for (const ground of grounds) result = passingAlternative(result, ground, 4.5);
  return grounds.every((ground) => contrastRatio(result, ground) >= 4.5) ? result : readableOn(grounds[0]!);
}

/** A dark scheme from the brand's hues: the page darkens toward DARK_GROUND, tinted by the primary colour. */
function darkGroundsOf(primary: Rgb): { darkBackground: Rgb; darkSoft: Rgb; darkPrimarySoft: Rgb } {
  const darkBackground = mix(DARK_GROUND, primary, 0.06);
  return {
    darkBackground,
    darkSoft: mix(mix(darkBackground, DARK_TEXT, 0.035), primary, 0.04),
    darkPrimarySoft: mix(darkBackground, primary, 0.28),
  };
}

/**
 * The browser's own chrome (`<meta name="theme-color">`) in each colour scheme: the brand's primary
 * colour in the light one; in the dark one the deep shade of it that the dark scheme's soft primary
 * ground uses, so the bar above a dark page does not glare in the light brand colour.
 */
export function themeColoursOf(site: Site): { light: string; dark: string } {
  const primary = site.info.brand.colours.primary;
  return { light: primary, dark: hexOf(darkGroundsOf(colour(primary)).darkPrimarySoft) };
}

/** The custom properties site.css reads, in the light scheme and a derived dark one. */
function brandStylesheet(site: Site): string {
  const { colours, fonts } = site.info.brand;
  const text = colour(colours.text);
  const background = colour(colours.background);
  const primary = colour(colours.primary);
  const link = colour(colours.link);
  const accent = colour(colours.accent);

  const light = lightScheme(text, background, primary, colour(colours.buttonText), link, accent);
  const { darkBackground, darkSoft, darkPrimarySoft } = darkGroundsOf(primary);
  // The primary colour is text too (secondary buttons, the current menu entry, the hero's eyebrow).
  const darkPrimary = readableOnAll(primary, [darkBackground, darkSoft, darkPrimarySoft]);
  const dark = {
    '--bg': hexOf(darkBackground),
    '--bg-soft': hexOf(darkSoft),
    '--surface': hexOf(mix(darkBackground, DARK_TEXT, 0.04)),
    '--text': hexOf(DARK_TEXT),
    '--text-muted': hexOf(readableOnAll(mix(DARK_TEXT, darkBackground, 0.3), [darkSoft, darkBackground])),
    '--border': hexOf(mix(darkBackground, DARK_TEXT, 0.16)),
    '--border-strong': hexOf(mix(darkBackground, DARK_TEXT, 0.32)),
    '--primary': hexOf(darkPrimary),
    '--primary-hover': hexOf(mix(darkPrimary, DARK_TEXT, 0.2)),
    '--primary-soft': hexOf(darkPrimarySoft),
    '--on-primary': hexOf(readableOn(darkPrimary)),
    '--link': hexOf(readableOnAll(link, [darkBackground, darkSoft])),
    '--accent': hexOf(accent),
    '--hero-from': hexOf(mix(darkBackground, primary, 0.22)),
    '--hero-to': hexOf(darkBackground),
  };
  const declarations = (values: Record<string, string>, indent: string) =>
    Object.entries(values)
      .map(([name, value]) => `${indent}${name}: ${value};`)
      .join('\n');
  return [
    // Without * and / no `*/` can form to end the comment (removing `*/` alone turns `**//` into one).
    `/* The brand of ${site.info.name.replace(/[*/]/g, '')}, generated from _site.yaml. */`,
    ':root {',
    `  --font-sans: ${fonts.body};`,
    `  --font-headings: ${fonts.headings};`,
    declarations(light, '  '),
    '}',
    '',
    '@media (prefers-color-scheme: dark) {',
    '  :root {',
    declarations(dark, '    '),
    '  }',
    '}',
    '',
  ].join('\n');
}

function lightScheme(
  text: Rgb,
  background: Rgb,
  primary: Rgb,
  buttonText: Rgb,
  link: Rgb,
  accent: Rgb,
): Record<string, string> {
  const soft = mix(background, primary, 0.04);
  const primarySoft = mix(background, primary, 0.1);
  return {
    '--bg': hexOf(background),
    '--bg-soft': hexOf(soft),
    '--surface': hexOf(background),
    '--text': hexOf(text),
    // Muted text is set on the page and on the soft panels and must pass on both.
    '--text-muted': hexOf(readableOnAll(mix(text, background, 0.28), [soft, primarySoft])),
    '--border': hexOf(mix(background, mix(text, primary, 0.5), 0.16)),
    '--border-strong': hexOf(mix(background, mix(text, primary, 0.5), 0.36)),
    '--primary': hexOf(readableOnAll(primary, [background, primarySoft])),
    '--primary-hover': hexOf(mix(primary, mix(text, { r: 0, g: 0, b: 0 }, 0.5), 0.22)),
    '--primary-soft': hexOf(primarySoft),
    '--on-primary': hexOf(buttonText),
    '--link': hexOf(readableOnAll(link, [background, soft])),
    '--accent': hexOf(accent),
    '--hero-from': hexOf(mix(background, primary, 0.09)),
    '--hero-to': hexOf(mix(background, primary, 0.02)),
  };
}

/** A square icon with the name's initial, for a site that names no favicon. */
function brandIcon(site: Site): string {
  const { colours } = site.info.brand;
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="32" height="32">' +
    `<rect x="1" y="1" width="30" height="30" rx="8" fill="${colours.primary}"/>` +
    `<text x="16" y="22" text-anchor="middle" font-family="system-ui, Arial, sans-serif" font-size="17" font-weight="700" fill="${colours.buttonText}">${escapeHtml(
      initialOf(site.info.name),
    )}</text></svg>\n`
  );
}
