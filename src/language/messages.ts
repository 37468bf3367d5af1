/**
 * The site's own words (the header and footer chrome, the search page, the 404 page, the whole text
 * item of an /ask answer: "Showing results for", the count and top result, a weak match, a word
 * still being typed, nothing matched) in each language the server ships, chosen by a page's or an
 * asker's language. The English lines of /ask are the ones agents read: change them only with the
 * recorded contract (test/fixtures/sample-contract.json). A catalogue is an object with every key
 * of the English one (the compiler checks it), so no language can show a raw key; a language
 * without a catalogue gets English. Placeholders are `{name}`, filled by `formatMessage`; a line
 * with a count has a key for one and a key for several (`answerFoundOne`, `answerFound`), so each
 * language words both its own way. To add a language: docs/multilingual.md.
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
  errorServerTitle: 'Something went wrong',
  errorRequestTitle: 'The request could not be handled',
  homeDemoTitle: 'See {site} in action',
  homeDemoLead: 'Tell us about your team and we will arrange a demo around the way you work.',
  searchTooMany:
    'Too many searches from your address: at most {quota} every {seconds} seconds are answered. Wait {wait} seconds and search again.',
  answerNothingMatched:
    'Nothing on {site} matched “{query}”. Try other words for the same thing, the name of a product, feature or document, or fewer words.',
  answerStillTyping:
    '“{query}” ends in a word still being typed: finish it to search {site}, or try the name of a product, feature or document.',
  answerNoWords:
    'What would you like to find on {site}? “{query}” has no words to search for (only very common words or punctuation). Ask about a topic, a product, a feature or a document by name.',
  answerFoundOne: 'Found 1 result for “{query}” on {site}. Top result: {title} ({url}).',
  answerFound: 'Found {count} results for “{query}” on {site}. Top result: {title} ({url}).',
  answerSoFarOne:
    '1 result so far for “{query}” on {site}, while its last word is being typed (closest: {title}, {url}). Finish the word to narrow it down.',
  answerSoFar:
    '{count} results so far for “{query}” on {site}, while its last word is being typed (closest: {title}, {url}). Finish the word to narrow them.',
  answerWeakOne:
    'No page on {site} matches “{query}” well: the result below matches only some of its words (closest: {title}, {url}). Try other words for the same thing, or fewer words.',
  answerWeak:
    'No page on {site} matches “{query}” well: the {count} results below match only some of its words (closest: {title}, {url}). Try other words for the same thing, or fewer words.',
  answerSiteScope: '{site} (scope “{scope}”)',
  searching: 'Searching…',
  liveSearchUnavailable: 'Live search is not available right now. Press Enter to search.',
  noPagesMatched: 'No pages matched.',
  searchResults: 'Search results',
  seeAllResults: 'See all results',
  formLoading: 'Loading the form…',
  formNotLoaded: 'The form could not be loaded: check your connection and reload the page.',
  formNotSent: 'The form could not be sent: check your connection and try again.',
  checkTheForm: 'Please check the form',
  fieldProblem: '{field}: {problem}.',
  nameField: 'Name',
  fieldRequired: 'please fill this in',
  fieldTooShort: 'must be at least {count} characters',
  fieldTooLong: 'must be at most {count} characters',
  fieldNotEmail: 'enter an e-mail address such as name@company.com',
  enterFullName: 'Enter your first and last name.',
  chooseMatchingArea: 'Choose an area that belongs to your organization type.',
  chooseAreaUnderType: 'Choose an area listed under “{type}”, or change the organization type.',
  chooseDependentChoice: 'choose one listed under “{choice}”, or change “{parent}”',
  chooseOne: 'Choose…',
  optionalField: '(optional)',
  leaveEmpty: 'Leave this field empty',
  addAnythingWriteTo: 'If you would like to add anything, write to {email}.',
  backTo: 'Back to {page}',
  formNotStored:
    'The form could not be sent just now (reference {reference}). Nothing was stored: please try again in a moment.',
  formNotStoredWriteTo:
    'The form could not be sent just now (reference {reference}). Nothing was stored: please try again in a moment or write to {email}.',
  formTooMany:
    'Too many forms sent from your address: at most {quota} every {seconds} seconds are accepted. Wait {wait} seconds and send it again; nothing was stored.',
  formThanksHeading: 'Thank you: it has been received',
  formThanksText: 'Thank you. We will reply to you soon.',
  serverAnswered: 'The server answered {status}.',
  tryAgain: 'Please try again.',
  home: 'Home',
  inThisSection: 'In this section',
  readMore: 'Read more →',
  exploreSite: 'Explore {site}',
  searchTooLong: 'The search is too long ({length} characters): use at most {max}.',
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
  errorServerTitle: 'Etwas ist schiefgelaufen',
  errorRequestTitle: 'Die Anfrage konnte nicht bearbeitet werden',
  homeDemoTitle: '{site} in Aktion erleben',
  homeDemoLead:
    'Erzählen Sie uns von Ihrem Team, und wir zeigen Ihnen eine Demo, die zu Ihrer Arbeitsweise passt.',
  searchTooMany:
    'Zu viele Suchen von Ihrer Adresse: höchstens {quota} alle {seconds} Sekunden werden beantwortet. Warten Sie {wait} Sekunden und suchen Sie dann erneut.',
  answerNothingMatched:
    'Nichts auf {site} passt zu „{query}“. Versuchen Sie andere Wörter für dieselbe Sache, den Namen eines Produkts, einer Funktion oder eines Dokuments, oder weniger Wörter.',
  answerStillTyping:
    '„{query}“ endet mit einem Wort, das noch getippt wird: Schreiben Sie es zu Ende, um {site} zu durchsuchen, oder versuchen Sie den Namen eines Produkts, einer Funktion oder eines Dokuments.',
  answerNoWords:
    'Was möchten Sie auf {site} finden? „{query}“ enthält keine Wörter, nach denen sich suchen lässt (nur sehr häufige Wörter oder Satzzeichen). Fragen Sie nach einem Thema, einem Produkt, einer Funktion oder einem Dokument mit seinem Namen.',
  answerFoundOne: '1 Ergebnis für „{query}“ auf {site} gefunden. Bestes Ergebnis: {title} ({url}).',
  answerFound: '{count} Ergebnisse für „{query}“ auf {site} gefunden. Bestes Ergebnis: {title} ({url}).',
  answerSoFarOne:
    'Bisher 1 Ergebnis für „{query}“ auf {site}, während das letzte Wort noch getippt wird (nächstliegende Seite: {title}, {url}). Schreiben Sie das Wort zu Ende, um die Suche einzugrenzen.',
  answerSoFar:
    'Bisher {count} Ergebnisse für „{query}“ auf {site}, während das letzte Wort noch getippt wird (nächstliegende Seite: {title}, {url}). Schreiben Sie das Wort zu Ende, um die Suche einzugrenzen.',
  answerWeakOne:
    'Keine Seite auf {site} passt gut zu „{query}“: Das Ergebnis unten enthält nur einige der gesuchten Wörter (nächstliegende Seite: {title}, {url}). Versuchen Sie andere Wörter für dieselbe Sache oder weniger Wörter.',
  answerWeak:
    'Keine Seite auf {site} passt gut zu „{query}“: Die {count} Ergebnisse unten enthalten nur einige der gesuchten Wörter (nächstliegende Seite: {title}, {url}). Versuchen Sie andere Wörter für dieselbe Sache oder weniger Wörter.',
  answerSiteScope: '{site} (Bereich „{scope}“)',
  searching: 'Suche läuft…',
  liveSearchUnavailable:
    'Die Live-Suche ist gerade nicht verfügbar. Drücken Sie die Eingabetaste, um zu suchen.',
  noPagesMatched: 'Keine Seite gefunden.',
  searchResults: 'Suchergebnisse',
  seeAllResults: 'Alle Ergebnisse anzeigen',
  formLoading: 'Formular wird geladen…',
  formNotLoaded:
    'Das Formular konnte nicht geladen werden: Prüfen Sie Ihre Verbindung und laden Sie die Seite neu.',
  formNotSent:
    'Das Formular konnte nicht gesendet werden: Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  checkTheForm: 'Bitte prüfen Sie das Formular',
  fieldProblem: '{field}: {problem}.',
  nameField: 'Name',
  fieldRequired: 'bitte ausfüllen',
  fieldTooShort: 'muss mindestens {count} Zeichen lang sein',
  fieldTooLong: 'darf höchstens {count} Zeichen lang sein',
  fieldNotEmail: 'geben Sie eine E-Mail-Adresse wie name@firma.de ein',
  enterFullName: 'Geben Sie Ihren Vor- und Nachnamen ein.',
  chooseMatchingArea: 'Wählen Sie einen Bereich, der zu Ihrer Organisationsart passt.',
  chooseAreaUnderType: 'Wählen Sie einen Bereich unter „{type}“ oder ändern Sie die Art der Organisation.',
  chooseDependentChoice: 'wählen Sie einen Eintrag unter „{choice}“ oder ändern Sie „{parent}“',
  chooseOne: 'Bitte wählen…',
  optionalField: '(optional)',
  leaveEmpty: 'Dieses Feld leer lassen',
  addAnythingWriteTo: 'Wenn Sie noch etwas ergänzen möchten, schreiben Sie an {email}.',
  backTo: 'Zurück zu {page}',
  formNotStored:
    'Das Formular konnte gerade nicht gesendet werden (Referenz {reference}). Es wurde nichts gespeichert: Bitte versuchen Sie es gleich noch einmal.',
  formNotStoredWriteTo:
    'Das Formular konnte gerade nicht gesendet werden (Referenz {reference}). Es wurde nichts gespeichert: Bitte versuchen Sie es gleich noch einmal oder schreiben Sie an {email}.',
  formTooMany:
    'Zu viele Formulare von Ihrer Adresse: höchstens {quota} alle {seconds} Sekunden werden angenommen. Warten Sie {wait} Sekunden und senden Sie es dann erneut; es wurde nichts gespeichert.',
  formThanksHeading: 'Vielen Dank: Ihre Angaben sind eingegangen',
  formThanksText: 'Vielen Dank. Wir melden uns bald bei Ihnen.',
  serverAnswered: 'Der Server antwortete mit {status}.',
  tryAgain: 'Bitte versuchen Sie es erneut.',
  home: 'Startseite',
  inThisSection: 'In diesem Bereich',
  readMore: 'Weiterlesen →',
  exploreSite: '{site} entdecken',
  searchTooLong: 'Die Suche ist zu lang ({length} Zeichen): Verwenden Sie höchstens {max}.',
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
  errorServerTitle: 'Une erreur est survenue',
  errorRequestTitle: 'La requête n’a pas pu être traitée',
  homeDemoTitle: 'Découvrez {site} en action',
  homeDemoLead:
    'Parlez-nous de votre équipe et nous organiserons une démonstration adaptée à votre façon de travailler.',
  searchTooMany:
    'Trop de recherches depuis votre adresse : au plus {quota} toutes les {seconds} secondes reçoivent une réponse. Attendez {wait} secondes, puis cherchez à nouveau.',
  answerNothingMatched:
    'Rien sur {site} ne correspond à « {query} ». Essayez d’autres mots pour la même chose, le nom d’un produit, d’une fonctionnalité ou d’un document, ou moins de mots.',
  answerStillTyping:
    '« {query} » se termine par un mot en cours de saisie : terminez-le pour rechercher sur {site}, ou essayez le nom d’un produit, d’une fonctionnalité ou d’un document.',
  answerNoWords:
    'Que souhaitez-vous trouver sur {site} ? « {query} » ne contient aucun mot à rechercher (seulement des mots très courants ou de la ponctuation). Demandez un sujet, un produit, une fonctionnalité ou un document par son nom.',
  answerFoundOne: '1 résultat trouvé pour « {query} » sur {site}. Meilleur résultat : {title} ({url}).',
  answerFound: '{count} résultats trouvés pour « {query} » sur {site}. Meilleur résultat : {title} ({url}).',
  answerSoFarOne:
    'Pour l’instant, 1 résultat pour « {query} » sur {site}, le dernier mot étant encore en cours de saisie (la page la plus proche : {title}, {url}). Terminez le mot pour affiner la recherche.',
  answerSoFar:
    'Pour l’instant, {count} résultats pour « {query} » sur {site}, le dernier mot étant encore en cours de saisie (la page la plus proche : {title}, {url}). Terminez le mot pour affiner la recherche.',
  answerWeakOne:
    'Aucune page sur {site} ne correspond bien à « {query} » : le résultat ci-dessous ne correspond qu’à certains des mots recherchés (la page la plus proche : {title}, {url}). Essayez d’autres mots pour la même chose, ou moins de mots.',
  answerWeak:
    'Aucune page sur {site} ne correspond bien à « {query} » : les {count} résultats ci-dessous ne correspondent qu’à certains des mots recherchés (la page la plus proche : {title}, {url}). Essayez d’autres mots pour la même chose, ou moins de mots.',
  answerSiteScope: '{site} (périmètre « {scope} »)',
  searching: 'Recherche en cours…',
  liveSearchUnavailable:
    'La recherche instantanée n’est pas disponible pour le moment. Appuyez sur Entrée pour rechercher.',
  noPagesMatched: 'Aucune page ne correspond.',
  searchResults: 'Résultats de recherche',
  seeAllResults: 'Voir tous les résultats',
  formLoading: 'Chargement du formulaire…',
  formNotLoaded: 'Le formulaire n’a pas pu être chargé : vérifiez votre connexion et rechargez la page.',
  formNotSent: 'Le formulaire n’a pas pu être envoyé : vérifiez votre connexion et réessayez.',
  checkTheForm: 'Veuillez vérifier le formulaire',
  fieldProblem: '{field} : {problem}.',
  nameField: 'Nom',
  fieldRequired: 'veuillez remplir ce champ',
  fieldTooShort: 'doit contenir au moins {count} caractères',
  fieldTooLong: 'doit contenir au plus {count} caractères',
  fieldNotEmail: 'saisissez une adresse e-mail comme nom@entreprise.fr',
  enterFullName: 'Saisissez votre prénom et votre nom.',
  chooseMatchingArea: 'Choisissez un domaine qui correspond à votre type d’organisation.',
  chooseAreaUnderType: 'Choisissez un domaine de la liste « {type} », ou changez le type d’organisation.',
  chooseDependentChoice: 'choisissez une valeur de la liste « {choice} », ou changez « {parent} »',
  chooseOne: 'Choisir…',
  optionalField: '(facultatif)',
  leaveEmpty: 'Laissez ce champ vide',
  addAnythingWriteTo: 'Pour ajouter quoi que ce soit, écrivez à {email}.',
  backTo: 'Retour à {page}',
  formNotStored:
    'Le formulaire n’a pas pu être envoyé pour le moment (référence {reference}). Rien n’a été enregistré : veuillez réessayer dans un instant.',
  formNotStoredWriteTo:
    'Le formulaire n’a pas pu être envoyé pour le moment (référence {reference}). Rien n’a été enregistré : veuillez réessayer dans un instant ou écrire à {email}.',
  formTooMany:
    'Trop de formulaires envoyés depuis votre adresse : au plus {quota} toutes les {seconds} secondes sont acceptés. Attendez {wait} secondes puis renvoyez-le ; rien n’a été enregistré.',
  formThanksHeading: 'Merci : votre envoi a bien été reçu',
  formThanksText: 'Merci. Nous vous répondrons rapidement.',
  serverAnswered: 'Le serveur a répondu {status}.',
  tryAgain: 'Veuillez réessayer.',
  home: 'Accueil',
  inThisSection: 'Dans cette section',
  readMore: 'Lire la suite →',
  exploreSite: 'Découvrir {site}',
  searchTooLong: 'La recherche est trop longue ({length} caractères) : utilisez-en au plus {max}.',
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
  errorServerTitle: 'Algo salió mal',
  errorRequestTitle: 'No se pudo procesar la solicitud',
  homeDemoTitle: 'Mira {site} en acción',
  homeDemoLead: 'Cuéntanos sobre tu equipo y organizaremos una demostración adaptada a tu forma de trabajar.',
  searchTooMany:
    'Demasiadas búsquedas desde tu dirección: se responden como máximo {quota} cada {seconds} segundos. Espera {wait} segundos y vuelve a buscar.',
  answerNothingMatched:
    'Nada en {site} coincide con «{query}». Prueba otras palabras para lo mismo, el nombre de un producto, una función o un documento, o menos palabras.',
  answerStillTyping:
    '«{query}» termina en una palabra que aún se está escribiendo: termínala para buscar en {site}, o prueba el nombre de un producto, una función o un documento.',
  answerNoWords:
    '¿Qué te gustaría encontrar en {site}? «{query}» no tiene palabras que buscar (solo palabras muy comunes o signos de puntuación). Pregunta por un tema, un producto, una función o un documento por su nombre.',
  answerFoundOne: 'Se encontró 1 resultado para «{query}» en {site}. Mejor resultado: {title} ({url}).',
  answerFound:
    'Se encontraron {count} resultados para «{query}» en {site}. Mejor resultado: {title} ({url}).',
  answerSoFarOne:
    'Por ahora, 1 resultado para «{query}» en {site}, mientras aún se escribe la última palabra (la página más cercana: {title}, {url}). Termina la palabra para acotar los resultados.',
  answerSoFar:
    'Por ahora, {count} resultados para «{query}» en {site}, mientras aún se escribe la última palabra (la página más cercana: {title}, {url}). Termina la palabra para acotar los resultados.',
  answerWeakOne:
    'Ninguna página en {site} coincide bien con «{query}»: el resultado de abajo solo coincide con algunas de las palabras buscadas (la página más cercana: {title}, {url}). Prueba otras palabras para lo mismo, o menos palabras.',
  answerWeak:
    'Ninguna página en {site} coincide bien con «{query}»: los {count} resultados de abajo solo coinciden con algunas de las palabras buscadas (la página más cercana: {title}, {url}). Prueba otras palabras para lo mismo, o menos palabras.',
  answerSiteScope: '{site} (ámbito «{scope}»)',
  searching: 'Buscando…',
  liveSearchUnavailable: 'La búsqueda instantánea no está disponible ahora. Pulsa Intro para buscar.',
  noPagesMatched: 'Ninguna página coincide.',
  searchResults: 'Resultados de búsqueda',
  seeAllResults: 'Ver todos los resultados',
  formLoading: 'Cargando el formulario…',
  formNotLoaded: 'No se pudo cargar el formulario: comprueba tu conexión y vuelve a cargar la página.',
  formNotSent: 'No se pudo enviar el formulario: comprueba tu conexión e inténtalo de nuevo.',
  checkTheForm: 'Revisa el formulario',
  fieldProblem: '{field}: {problem}.',
  nameField: 'Nombre',
  fieldRequired: 'rellena este campo',
  fieldTooShort: 'debe tener al menos {count} caracteres',
  fieldTooLong: 'debe tener como máximo {count} caracteres',
  fieldNotEmail: 'escribe una dirección de correo como nombre@empresa.com',
  enterFullName: 'Escribe tu nombre y tus apellidos.',
  chooseMatchingArea: 'Elige un área que corresponda a tu tipo de organización.',
  chooseAreaUnderType: 'Elige un área de la lista «{type}» o cambia el tipo de organización.',
  chooseDependentChoice: 'elige una opción de la lista «{choice}» o cambia «{parent}»',
  chooseOne: 'Elige…',
  optionalField: '(opcional)',
  leaveEmpty: 'Deja este campo vacío',
  addAnythingWriteTo: 'Si quieres añadir algo, escribe a {email}.',
  backTo: 'Volver a {page}',
  formNotStored:
    'No se pudo enviar el formulario en este momento (referencia {reference}). No se guardó nada: inténtalo de nuevo en un momento.',
  formNotStoredWriteTo:
    'No se pudo enviar el formulario en este momento (referencia {reference}). No se guardó nada: inténtalo de nuevo en un momento o escribe a {email}.',
  formTooMany:
    'Demasiados formularios enviados desde tu dirección: se aceptan como máximo {quota} cada {seconds} segundos. Espera {wait} segundos y vuelve a enviarlo; no se guardó nada.',
  formThanksHeading: 'Gracias: lo hemos recibido',
  formThanksText: 'Gracias. Te responderemos pronto.',
  serverAnswered: 'El servidor respondió {status}.',
  tryAgain: 'Inténtalo de nuevo.',
  home: 'Inicio',
  inThisSection: 'En esta sección',
  readMore: 'Leer más →',
  exploreSite: 'Explorar {site}',
  searchTooLong: 'La búsqueda es demasiado larga ({length} caracteres): usa como máximo {max}.',
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
  errorServerTitle: '問題が発生しました',
  errorRequestTitle: 'リクエストを処理できませんでした',
  homeDemoTitle: '{site} の実際をご覧ください',
  homeDemoLead: 'チームについてお聞かせください。仕事の進め方に合わせたデモをご用意します。',
  searchTooMany:
    'このアドレスからの検索が多すぎます。{seconds} 秒ごとに最大 {quota} 件まで回答します。{wait} 秒待ってから再度検索してください。',
  answerNothingMatched:
    '{site} で「{query}」に一致するものはありませんでした。同じ内容を別の言葉で、製品・機能・ドキュメントの名前で、または少ない単語で検索してください。',
  answerStillTyping:
    '「{query}」は入力中の単語で終わっています。入力を終えて {site} を検索するか、製品・機能・ドキュメントの名前で検索してください。',
  answerNoWords:
    '{site} で何をお探しですか？「{query}」には検索できる単語がありません（よく使われる単語や句読点のみです）。トピック、製品、機能、ドキュメントの名前で質問してください。',
  answerFoundOne: '{site} で「{query}」の検索結果が 1 件見つかりました。最上位の結果: {title}（{url}）。',
  answerFound: '{site} で「{query}」の検索結果が {count} 件見つかりました。最上位の結果: {title}（{url}）。',
  answerSoFarOne:
    '最後の単語を入力中のため、{site} での「{query}」の検索結果は今のところ 1 件です（最も近いページ: {title}、{url}）。単語を最後まで入力すると結果が絞り込まれます。',
  answerSoFar:
    '最後の単語を入力中のため、{site} での「{query}」の検索結果は今のところ {count} 件です（最も近いページ: {title}、{url}）。単語を最後まで入力すると結果が絞り込まれます。',
  answerWeakOne:
    '{site} には「{query}」によく一致するページはありません。以下の 1 件は一部の単語にのみ一致します（最も近いページ: {title}、{url}）。同じ内容を別の言葉で、または少ない単語で検索してください。',
  answerWeak:
    '{site} には「{query}」によく一致するページはありません。以下の {count} 件は一部の単語にのみ一致します（最も近いページ: {title}、{url}）。同じ内容を別の言葉で、または少ない単語で検索してください。',
  answerSiteScope: '{site}（範囲「{scope}」）',
  searching: '検索しています…',
  liveSearchUnavailable: 'ライブ検索は現在利用できません。Enter キーを押して検索してください。',
  noPagesMatched: '一致するページはありません。',
  searchResults: '検索結果',
  seeAllResults: 'すべての結果を見る',
  formLoading: 'フォームを読み込んでいます…',
  formNotLoaded: 'フォームを読み込めませんでした。接続を確認してページを再読み込みしてください。',
  formNotSent: 'フォームを送信できませんでした。接続を確認してもう一度お試しください。',
  checkTheForm: 'フォームの内容を確認してください',
  fieldProblem: '{field}: {problem}。',
  nameField: '氏名',
  fieldRequired: '入力してください',
  fieldTooShort: '{count} 文字以上で入力してください',
  fieldTooLong: '{count} 文字以内で入力してください',
  fieldNotEmail: 'name@company.com のようなメールアドレスを入力してください',
  enterFullName: '姓と名を入力してください。',
  chooseMatchingArea: '組織の種類に合う分野を選んでください。',
  chooseAreaUnderType: '「{type}」の一覧から分野を選ぶか、組織の種類を変更してください。',
  chooseDependentChoice: '「{choice}」の一覧から選ぶか、「{parent}」を変更してください',
  chooseOne: '選択してください',
  optionalField: '（任意）',
  leaveEmpty: 'この欄は空欄のままにしてください',
  addAnythingWriteTo: '補足があれば {email} までご連絡ください。',
  backTo: '{page}に戻る',
  formNotStored:
    '現在フォームを送信できませんでした（参照番号 {reference}）。何も保存されていません。しばらくしてからもう一度お試しください。',
  formNotStoredWriteTo:
    '現在フォームを送信できませんでした（参照番号 {reference}）。何も保存されていません。しばらくしてからもう一度お試しいただくか、{email} までご連絡ください。',
  formTooMany:
    'このアドレスからのフォーム送信が多すぎます。{seconds} 秒ごとに最大 {quota} 件まで受け付けます。{wait} 秒待ってから再度送信してください。何も保存されていません。',
  formThanksHeading: 'ありがとうございます。送信内容を受け付けました',
  formThanksText: 'ありがとうございます。追ってご連絡いたします。',
  serverAnswered: 'サーバーの応答: {status}。',
  tryAgain: 'もう一度お試しください。',
  home: 'ホーム',
  inThisSection: 'このセクションの内容',
  readMore: '続きを読む →',
  exploreSite: '{site} を見る',
  searchTooLong: '検索語が長すぎます（{length} 文字）。{max} 文字以内にしてください。',
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
  errorServerTitle: '出错了',
  errorRequestTitle: '无法处理该请求',
  homeDemoTitle: '看看 {site} 的实际效果',
  homeDemoLead: '介绍一下您的团队，我们会按照您的工作方式安排演示。',
  searchTooMany: '来自您地址的搜索过多：每 {seconds} 秒最多回答 {quota} 次。请等待 {wait} 秒后再搜索。',
  answerNothingMatched:
    '{site} 上没有与“{query}”匹配的内容。请换用表达同一意思的其他词语、产品、功能或文档的名称，或减少词语。',
  answerStillTyping:
    '“{query}”以一个尚未输入完的词结尾：输入完整后即可搜索 {site}，或试试产品、功能或文档的名称。',
  answerNoWords:
    '您想在 {site} 上找什么？“{query}”中没有可搜索的词（只有非常常见的词或标点）。请按名称询问某个主题、产品、功能或文档。',
  answerFoundOne: '在 {site} 上为“{query}”找到 1 个结果。最佳结果：{title}（{url}）。',
  answerFound: '在 {site} 上为“{query}”找到 {count} 个结果。最佳结果：{title}（{url}）。',
  answerSoFarOne:
    '最后一个词仍在输入中，目前在 {site} 上为“{query}”找到 1 个结果（最接近的页面：{title}，{url}）。输完这个词即可缩小结果范围。',
  answerSoFar:
    '最后一个词仍在输入中，目前在 {site} 上为“{query}”找到 {count} 个结果（最接近的页面：{title}，{url}）。输完这个词即可缩小结果范围。',
  answerWeakOne:
    '{site} 上没有页面与“{query}”很好地匹配：下面的 1 个结果只匹配了其中部分词语（最接近的页面：{title}，{url}）。请换用表达同一意思的其他词语，或减少词语。',
  answerWeak:
    '{site} 上没有页面与“{query}”很好地匹配：下面的 {count} 个结果只匹配了其中部分词语（最接近的页面：{title}，{url}）。请换用表达同一意思的其他词语，或减少词语。',
  answerSiteScope: '{site}（范围“{scope}”）',
  searching: '正在搜索…',
  liveSearchUnavailable: '实时搜索暂时不可用。按回车键进行搜索。',
  noPagesMatched: '没有匹配的页面。',
  searchResults: '搜索结果',
  seeAllResults: '查看全部结果',
  formLoading: '正在加载表单…',
  formNotLoaded: '无法加载表单：请检查网络连接并重新加载页面。',
  formNotSent: '无法发送表单：请检查网络连接后重试。',
  checkTheForm: '请检查表单',
  fieldProblem: '{field}：{problem}。',
  nameField: '姓名',
  fieldRequired: '请填写此项',
  fieldTooShort: '至少需要 {count} 个字符',
  fieldTooLong: '最多 {count} 个字符',
  fieldNotEmail: '请输入电子邮件地址，例如 name@company.com',
  enterFullName: '请输入您的姓名。',
  chooseMatchingArea: '请选择属于您的机构类型的领域。',
  chooseAreaUnderType: '请从“{type}”下列出的领域中选择，或更改组织类型。',
  chooseDependentChoice: '请从“{choice}”下列出的选项中选择，或更改“{parent}”',
  chooseOne: '请选择…',
  optionalField: '（选填）',
  leaveEmpty: '请勿填写此栏',
  addAnythingWriteTo: '如需补充内容，请发送邮件至 {email}。',
  backTo: '返回{page}',
  formNotStored: '表单暂时无法发送（参考编号 {reference}）。未保存任何内容：请稍后重试。',
  formNotStoredWriteTo:
    '表单暂时无法发送（参考编号 {reference}）。未保存任何内容：请稍后重试，或发送邮件至 {email}。',
  formTooMany:
    '来自您地址的表单提交过多：每 {seconds} 秒最多接受 {quota} 份。请等待 {wait} 秒后再次发送；未保存任何内容。',
  formThanksHeading: '谢谢：我们已收到您的提交',
  formThanksText: '谢谢。我们会尽快回复您。',
  serverAnswered: '服务器返回了 {status}。',
  tryAgain: '请重试。',
  home: '首页',
  inThisSection: '本节内容',
  readMore: '阅读更多 →',
  exploreSite: '探索 {site}',
  searchTooLong: '搜索内容太长（{length} 个字符）：最多使用 {max} 个字符。',
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

/** "Showing results for “{query}”" in every catalogue (each once, sorted): an answer says it in the asker's language. */
export const SHOWING_RESULTS_TEMPLATES: readonly string[] = [
  ...new Set(Object.values(CATALOGUES).map((m) => m.showingResultsFor)),
].sort();

/** The same, as patterns that capture the query. */
const SHOWING_PATTERNS: readonly RegExp[] = SHOWING_RESULTS_TEMPLATES.map((template) => {
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

/**
 * The fixed start and end of the weak-match lines (one result, several) of every catalogue; the
 * live search reads them from the page's words (src/site/script-words.ts).
 */
export const WEAK_MATCH_ENDS: readonly { start: string; end: string }[] = [
  ...new Set(Object.values(CATALOGUES).flatMap((m) => [m.answerWeakOne, m.answerWeak])),
].map((template) => {
  const parts = template.split(/\{\w+\}/);
  return { start: parts[0]!, end: parts[parts.length - 1]! };
});

/**
 * Whether an answer's text says that no page matches the query well (`answerWeak`, after the
 * correction when there is one), in whichever language it was written: by the fixed start and end
 * of that line (no other line of an answer ends as it does).
 */
export function saysWeakMatch(text: string): boolean {
  const rest = text.slice(correctedQueryOf(text)?.length ?? 0);
  return WEAK_MATCH_ENDS.some(({ start, end }) => rest.startsWith(start) && rest.endsWith(end));
}
