/**
 * The site's own words (the header and footer chrome, the search page, the 404 page, the
 * "Showing results for" line of /ask) in each language the server ships, chosen by a page's or an
 * asker's language. A catalogue is an object with every key of the English one (the compiler
 * checks it), so no language can show a raw key; a language without a catalogue gets English.
 * Placeholders are `{name}`, filled by `formatMessage`. To add a language: docs/multilingual.md.
 */

import { primaryLanguage } from './index.js';

const ENGLISH = {
  skipToContent: 'Skip to main content',
  siteSearch: 'Site search',
  searchTheSite: 'Search the site',
  searchPlaceholder: 'Search',
  search: 'Search',
  requestDemo: 'Request a demo',
  breadcrumb: 'Breadcrumb',
  mainNavigation: 'Main',
  onThisPage: 'On this page',
  updated: 'Updated',
  languages: 'Languages',
  footerNavigation: 'Footer',
  footerExplore: 'Explore',
  footerCompany: 'Company',
  footerDevelopers: 'Developers and agents',
  developers: 'Developers',
  apiDocumentation: 'API documentation',
  openApiContract: 'OpenAPI contract',
  sitemap: 'Sitemap',
  searchThisSite: 'Search this site',
  searchQuery: 'Search query',
  searchPagePlaceholder: 'Search pages and documentation',
  searchPrompt: 'Type a question or a few words to search the site.',
  searchTitle: 'Search: {query}',
  searchDescription: 'Search the pages and documentation of {site}.',
  oneResultFor: '1 result for “{query}”',
  resultsFor: '{count} results for “{query}”',
  noPageMatches: 'No page matches “{query}” well; the closest pages:',
  showingResultsFor: 'Showing results for “{query}”',
  notFoundTitle: 'Page not found',
  notFoundLead: 'There is no page at {path}. It may have moved, or the address may be mistyped.',
  notFoundDescription: 'The page {path} does not exist on this site.',
  didYouMean: 'Did you mean',
  popularPages: 'Popular pages',
  goHome: 'Go to the home page',
  errorCode: 'Error {status}',
} as const;

export type MessageKey = keyof typeof ENGLISH;
export type Messages = Readonly<Record<MessageKey, string>>;

const GERMAN: Messages = {
  skipToContent: 'Zum Inhalt springen',
  siteSearch: 'Website-Suche',
  searchTheSite: 'Website durchsuchen',
  searchPlaceholder: 'Suchen',
  search: 'Suchen',
  requestDemo: 'Demo anfragen',
  breadcrumb: 'Brotkrümelnavigation',
  mainNavigation: 'Hauptnavigation',
  onThisPage: 'Auf dieser Seite',
  updated: 'Aktualisiert',
  languages: 'Sprachen',
  footerNavigation: 'Fußzeile',
  footerExplore: 'Entdecken',
  footerCompany: 'Unternehmen',
  footerDevelopers: 'Entwickler und Agenten',
  developers: 'Entwickler',
  apiDocumentation: 'API-Dokumentation',
  openApiContract: 'OpenAPI-Vertrag',
  sitemap: 'Sitemap',
  searchThisSite: 'Diese Website durchsuchen',
  searchQuery: 'Suchbegriff',
  searchPagePlaceholder: 'Seiten und Dokumentation durchsuchen',
  searchPrompt: 'Geben Sie eine Frage oder ein paar Wörter ein, um die Website zu durchsuchen.',
  searchTitle: 'Suche: {query}',
  searchDescription: 'Die Seiten und die Dokumentation von {site} durchsuchen.',
  oneResultFor: '1 Ergebnis für „{query}“',
  resultsFor: '{count} Ergebnisse für „{query}“',
  noPageMatches: 'Keine Seite passt gut zu „{query}“; die nächstliegenden Seiten:',
  showingResultsFor: 'Ergebnisse für „{query}“',
  notFoundTitle: 'Seite nicht gefunden',
  notFoundLead:
    'Unter {path} gibt es keine Seite. Sie wurde vielleicht verschoben, oder die Adresse ist falsch geschrieben.',
  notFoundDescription: 'Die Seite {path} gibt es auf dieser Website nicht.',
  didYouMean: 'Meinten Sie',
  popularPages: 'Beliebte Seiten',
  goHome: 'Zur Startseite',
  errorCode: 'Fehler {status}',
};

const FRENCH: Messages = {
  skipToContent: 'Aller au contenu principal',
  siteSearch: 'Recherche sur le site',
  searchTheSite: 'Rechercher sur le site',
  searchPlaceholder: 'Rechercher',
  search: 'Rechercher',
  requestDemo: 'Demander une démo',
  breadcrumb: 'Fil d’Ariane',
  mainNavigation: 'Navigation principale',
  onThisPage: 'Sur cette page',
  updated: 'Mis à jour le',
  languages: 'Langues',
  footerNavigation: 'Pied de page',
  footerExplore: 'Explorer',
  footerCompany: 'Entreprise',
  footerDevelopers: 'Développeurs et agents',
  developers: 'Développeurs',
  apiDocumentation: 'Documentation de l’API',
  openApiContract: 'Contrat OpenAPI',
  sitemap: 'Plan du site',
  searchThisSite: 'Rechercher sur ce site',
  searchQuery: 'Requête de recherche',
  searchPagePlaceholder: 'Rechercher dans les pages et la documentation',
  searchPrompt: 'Saisissez une question ou quelques mots pour rechercher sur le site.',
  searchTitle: 'Recherche : {query}',
  searchDescription: 'Rechercher dans les pages et la documentation de {site}.',
  oneResultFor: '1 résultat pour « {query} »',
  resultsFor: '{count} résultats pour « {query} »',
  noPageMatches: 'Aucune page ne correspond bien à « {query} » ; les pages les plus proches :',
  showingResultsFor: 'Résultats pour « {query} »',
  notFoundTitle: 'Page introuvable',
  notFoundLead: 'Il n’y a pas de page à {path}. Elle a peut-être été déplacée, ou l’adresse est mal saisie.',
  notFoundDescription: 'La page {path} n’existe pas sur ce site.',
  didYouMean: 'Vouliez-vous dire',
  popularPages: 'Pages populaires',
  goHome: 'Aller à la page d’accueil',
  errorCode: 'Erreur {status}',
};

const SPANISH: Messages = {
  skipToContent: 'Ir al contenido principal',
  siteSearch: 'Búsqueda en el sitio',
  searchTheSite: 'Buscar en el sitio',
  searchPlaceholder: 'Buscar',
  search: 'Buscar',
  requestDemo: 'Solicitar una demo',
  breadcrumb: 'Ruta de navegación',
  mainNavigation: 'Navegación principal',
  onThisPage: 'En esta página',
  updated: 'Actualizado el',
  languages: 'Idiomas',
  footerNavigation: 'Pie de página',
  footerExplore: 'Explorar',
  footerCompany: 'Empresa',
  footerDevelopers: 'Desarrolladores y agentes',
  developers: 'Desarrolladores',
  apiDocumentation: 'Documentación de la API',
  openApiContract: 'Contrato OpenAPI',
  sitemap: 'Mapa del sitio',
  searchThisSite: 'Buscar en este sitio',
  searchQuery: 'Consulta de búsqueda',
  searchPagePlaceholder: 'Buscar en las páginas y la documentación',
  searchPrompt: 'Escribe una pregunta o unas palabras para buscar en el sitio.',
  searchTitle: 'Búsqueda: {query}',
  searchDescription: 'Buscar en las páginas y la documentación de {site}.',
  oneResultFor: '1 resultado para «{query}»',
  resultsFor: '{count} resultados para «{query}»',
  noPageMatches: 'Ninguna página coincide bien con «{query}»; las páginas más cercanas:',
  showingResultsFor: 'Mostrando resultados para «{query}»',
  notFoundTitle: 'Página no encontrada',
  notFoundLead:
    'No hay ninguna página en {path}. Puede que se haya movido o que la dirección esté mal escrita.',
  notFoundDescription: 'La página {path} no existe en este sitio.',
  didYouMean: '¿Quisiste decir',
  popularPages: 'Páginas populares',
  goHome: 'Ir a la página de inicio',
  errorCode: 'Error {status}',
};

const JAPANESE: Messages = {
  skipToContent: 'メインコンテンツへスキップ',
  siteSearch: 'サイト内検索',
  searchTheSite: 'サイト内を検索',
  searchPlaceholder: '検索',
  search: '検索',
  requestDemo: 'デモを依頼',
  breadcrumb: 'パンくずリスト',
  mainNavigation: 'メイン',
  onThisPage: 'このページの内容',
  updated: '更新日',
  languages: '言語',
  footerNavigation: 'フッター',
  footerExplore: 'サイト内を見る',
  footerCompany: '会社情報',
  footerDevelopers: '開発者とエージェント',
  developers: '開発者',
  apiDocumentation: 'API ドキュメント',
  openApiContract: 'OpenAPI 仕様',
  sitemap: 'サイトマップ',
  searchThisSite: 'このサイトを検索',
  searchQuery: '検索語',
  searchPagePlaceholder: 'ページとドキュメントを検索',
  searchPrompt: '質問やいくつかの単語を入力してサイトを検索してください。',
  searchTitle: '検索: {query}',
  searchDescription: '{site} のページとドキュメントを検索します。',
  oneResultFor: '「{query}」の検索結果 1 件',
  resultsFor: '「{query}」の検索結果 {count} 件',
  noPageMatches: '「{query}」によく一致するページはありません。近いページ:',
  showingResultsFor: '「{query}」の検索結果を表示しています',
  notFoundTitle: 'ページが見つかりません',
  notFoundLead: '{path} にページはありません。移動したか、アドレスが間違っている可能性があります。',
  notFoundDescription: 'ページ {path} はこのサイトにありません。',
  didYouMean: 'もしかして',
  popularPages: '人気のページ',
  goHome: 'ホームページへ',
  errorCode: 'エラー {status}',
};

const CHINESE: Messages = {
  skipToContent: '跳到主要内容',
  siteSearch: '站内搜索',
  searchTheSite: '搜索本站',
  searchPlaceholder: '搜索',
  search: '搜索',
  requestDemo: '申请演示',
  breadcrumb: '面包屑导航',
  mainNavigation: '主导航',
  onThisPage: '本页内容',
  updated: '更新于',
  languages: '语言',
  footerNavigation: '页脚',
  footerExplore: '浏览',
  footerCompany: '公司',
  footerDevelopers: '开发者与智能体',
  developers: '开发者',
  apiDocumentation: 'API 文档',
  openApiContract: 'OpenAPI 规范',
  sitemap: '网站地图',
  searchThisSite: '搜索本站',
  searchQuery: '搜索内容',
  searchPagePlaceholder: '搜索页面和文档',
  searchPrompt: '输入问题或几个词来搜索本站。',
  searchTitle: '搜索：{query}',
  searchDescription: '搜索 {site} 的页面和文档。',
  oneResultFor: '“{query}”的 1 个结果',
  resultsFor: '“{query}”的 {count} 个结果',
  noPageMatches: '没有页面与“{query}”很好地匹配；最接近的页面：',
  showingResultsFor: '显示“{query}”的结果',
  notFoundTitle: '找不到页面',
  notFoundLead: '{path} 没有页面。它可能已被移动，或者地址有误。',
  notFoundDescription: '本站不存在页面 {path}。',
  didYouMean: '您是不是要找',
  popularPages: '热门页面',
  goHome: '返回首页',
  errorCode: '错误 {status}',
};

const CATALOGUES: Readonly<Record<string, Messages>> = {
  en: ENGLISH,
  de: GERMAN,
  fr: FRENCH,
  es: SPANISH,
  ja: JAPANESE,
  zh: CHINESE,
};

/** The languages with a catalogue (primary subtags), in a fixed order. */
export const MESSAGE_LANGUAGES: readonly string[] = Object.keys(CATALOGUES).sort();

/** The catalogue of a language (its primary subtag decides: "de-AT" → German); English otherwise. */
export function messagesFor(lang: string | null | undefined): Messages {
  if (!lang) return ENGLISH;
  return CATALOGUES[primaryLanguage(lang)] ?? ENGLISH;
}

/** The language whose catalogue `messagesFor(lang)` gives ("de-AT" → "de", "ko" → "en"). */
export function messageLanguage(lang: string | null | undefined): string {
  const code = lang ? primaryLanguage(lang) : 'en';
  return CATALOGUES[code] ? code : 'en';
}

/** A message with its `{name}` placeholders filled (a placeholder without a value stays as written). */
export function formatMessage(
  template: string,
  values: Readonly<Record<string, string | number>> = {},
): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** "Showing results for “…”" in every catalogue, as patterns that capture the query. */
const SHOWING_PATTERNS: readonly RegExp[] = [
  ...new Set(Object.values(CATALOGUES).map((m) => m.showingResultsFor)),
].map((template) => {
  const [before, after] = template.split('{query}') as [string, string];
  return new RegExp(`^${escapeRegExp(before)}(.*?)${escapeRegExp(after)}\\. `, 'u');
});

/**
 * The corrected query an answer's text starts with ("Showing results for “…”. " in whichever
 * language the answer was written), or null when it has none.
 */
export function correctedQueryOf(text: string): { query: string; length: number } | null {
  for (const pattern of SHOWING_PATTERNS) {
    const match = pattern.exec(text);
    if (match) return { query: match[1]!, length: match[0].length };
  }
  return null;
}
