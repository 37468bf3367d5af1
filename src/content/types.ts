/** The content model: what the loader produces from a folder of Markdown files. */

export interface Heading {
  /** 2-6: the title is the page's only h1, so a level-1 heading in the body counts as level 2. */
  level: number;
  text: string;
  /** The id of the heading element in the page's HTML (stable slug, unique within the page). */
  anchor: string;
}

/** A searchable piece of a page: the text between two headings. */
export interface Passage {
  /** Stable unique key: `url` for the lead passage, `url#anchor` for a section. */
  key: string;
  pageUrl: string;
  /** null for the text before the first heading. */
  anchor: string | null;
  /** Heading path from the page title down to this section, e.g. ["Security", "Data residency"]. */
  headingPath: string[];
  /** Plain text of the section (Markdown syntax removed). */
  text: string;
}

/** What a page's front matter says beyond its title, description and dates, validated. */
export interface PageMetadata {
  /** Front matter `tags`: trimmed, whitespace collapsed, NFC, duplicates dropped, in written order. */
  tags: string[];
  /** Front matter `keywords` (a list, or text split at commas), normalised like `tags`. */
  keywords: string[];
  /** Front matter `aliases` (other names or former paths of the page), normalised like `tags`. */
  aliases: string[];
  /** Position in the header navigation (front matter `nav`), or null. */
  nav: number | null;
  /** Ordering inside a section index (front matter `order`), or null. */
  order: number | null;
  /** Form placed on the page (front matter `form`). */
  form: string | null;
}

export interface Page extends PageMetadata {
  /**
   * Site path: `/`, `/solutions/`, `/solutions/cros`. Decoded and NFC-normalised; write it into an
   * href with `encodePagePath(url)`.
   */
  url: string;
  /** Path of the source file relative to the content folder, with `/` separators. */
  sourcePath: string;
  title: string;
  /** Front matter `description`, else the first paragraph or quote, cut to 160 characters on a word boundary. */
  description: string;
  /** First publication (YYYY-MM-DD): front matter `date` (or `published`, `pubDate`, …), if any. */
  date: string | null;
  /**
   * Last modification (YYYY-MM-DD): front matter `updated` (or `lastmod`, `ms.date`, … in the
   * order of MODIFIED_KEYS), else the publication date, else the file's mtime.
   */
  lastModified: string;
  /**
   * The Markdown body without front matter, and without the `# ` heading that gave (or repeated)
   * the title. `markdownOf(page)` adds the title back for the Markdown twin; `htmlOf(page)`
   * renders it (the HTML is not kept: the site renders a page on its first request and keeps the
   * bytes of the most recently asked pages, and most pages of a large site are never asked for).
   */
  markdown: string;
  headings: Heading[];
  passages: Passage[];
  /** Anchors of the sections that are mostly links (null: the text before the first heading). */
  linkListAnchors: (string | null)[];
  /**
   * The page's language, a BCP 47 tag: front matter `lang` (a built HTML page's `<html lang>`),
   * else its top folder (/de/, /pt-br/), else `_site.yaml` `language`, else detected from its text
   * (else "en").
   */
  lang: string;
  /** The language detected from the text when neither front matter nor folder says (else null). */
  detectedLang: string | null;
  /** The whole front matter, for templates that need more keys. */
  frontMatter: Record<string, unknown>;
  /**
   * The schema.org JSON-LD objects a built HTML page carries (valid JSON, at most
   * MAX_JSON_LD_LENGTH characters in all), returned with its search results.
   */
  schemaOrg?: Record<string, unknown>[];
}

/** Company details from the content folder's `_site.yaml`. */
export interface SiteInfo {
  name: string;
  legalName: string;
  tagline: string;
  description: string;
  contactEmail: string;
  salesEmail: string;
  address: string;
  foundingYear: number | null;
  /**
   * `language`: the language of every page that says nothing of its own (no front matter `lang`,
   * no language folder), as a BCP 47 tag; null when not given (each such page's is detected).
   */
  language: string | null;
  sameAs: string[];
  /** `brand`: logo, colours, fonts and images; a neutral brand from the name when not given. */
  brand: Brand;
  /** `navigation`: the header's links; null = derived from the content (see src/site/paths.ts). */
  navigation: NavLink[] | null;
  /** `footer`: the footer's columns of links; null = derived from the content. */
  footer: FooterColumn[] | null;
}

/** A picture from the content folder: `file` relative to it, `/`-separated. */
export interface BrandImage {
  file: string;
  /** '' marks it decorative. */
  alt: string;
}

/** The palette, each colour `#rrggbb`, after the contrast check (a failing one is replaced). */
export interface BrandColours {
  text: string;
  background: string;
  /** Buttons, the brand mark, the current navigation entry. */
  primary: string;
  /** Text on a primary button. */
  buttonText: string;
  link: string;
  /** Small highlights (decoration only, never text). */
  accent: string;
}

export interface Brand {
  /** null: a text logo, the name's initial in a primary-coloured square beside the name. */
  logo: (BrandImage & { showName: boolean }) | null;
  colours: BrandColours;
  /** CSS font-family lists. */
  fonts: { body: string; headings: string };
  /** null: an icon drawn from the name's initial in the primary colour. */
  favicon: string | null;
  /** The picture shared links show (Open Graph, X); null: none. */
  socialImage: BrandImage | null;
  /** The home page's illustration beside its headline; null: none. */
  hero: BrandImage | null;
}

/** A link in the header or the footer: a site path (`/pricing`) or a web address. */
export interface NavLink {
  /** '' = the linked page's short title. */
  label: string;
  url: string;
}

export interface FooterColumn {
  title: string;
  links: NavLink[];
}

export interface Site {
  info: SiteInfo;
  /** Every page, sorted by URL (byte order), so everything derived from it is deterministic. */
  pages: Page[];
  byUrl: Map<string, Page>;
}

/** A problem found in the content folder, reported with its file and line. */
export interface ContentProblem {
  file: string;
  line: number | null;
  message: string;
  severity: 'error' | 'warning';
}
