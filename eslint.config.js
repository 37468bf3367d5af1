import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The rooms of src/ in layers, lowest first. A room imports another room only through its
 * `index.ts`, and only a room of a lower layer: never one of its own layer or above. The layers
 * are read off the imports as they are (docs/architecture.md, "Layout"):
 *   1. contract, config, unicode, language, sqlite, cache, compression, text, http-primitives: the
 *      published contract, the validated configuration, the Unicode folding and code point order
 *      that content and search share, the SQLite connection and schema migrations that
 *      submissions and insight share, the bounded caches that nlweb and site share, coded
 *      variants, escaping for HTML and terminals, and ETags and client keys;
 *   2. content, search, snapshot, admin: the content model, the search engine, the on-disk
 *      snapshot, the operators' listener (insight and metrics add routes to it);
 *   3. nlweb, submissions, discovery, crawl: /ask, the forms' outbox, the discovery documents, the
 *      crawler that mirrors a live site (CONTENT_URL) into the content folder (its files written
 *      as snapshot writes its own);
 *   4. site, limits, metrics: the HTML site (links the discovery documents, searches through
 *      nlweb), rate limits and counters;
 *   5. insight: the site owner's reports over searches, documents and submissions;
 *   6. http: the Fastify application and its routes, over the content being served (LiveContent);
 *   7. runtime: the process: the composition root that assembles every room, the content's
 *      lifecycle (load, snapshot, reload, the generation worker) and where the log goes;
 *   8. cli: the command line, which starts the server.
 */
const LAYERS = [
  ['contract', 'config', 'unicode', 'language', 'sqlite', 'cache', 'compression', 'text', 'http-primitives'],
  ['content', 'search', 'snapshot', 'admin'],
  ['nlweb', 'submissions', 'discovery', 'crawl'],
  ['site', 'limits', 'metrics'],
  ['insight'],
  ['http'],
  ['runtime'],
  ['cli'],
];

/** Extra limits inside a room: route files are registered by app.ts and never import it or each other. */
const INNER_LIMITS = {
  'src/http/surfaces/**': [
    {
      regex: '^\\.\\./app\\.js$',
      message: 'A route file takes its AppContext from ../context.js; only app.ts registers the routes.',
    },
    {
      regex: '^\\./',
      message: 'Route files do not import each other: move what they share into src/http/.',
    },
  ],
};

function boundaryPatterns(room) {
  const layer = LAYERS.findIndex((rooms) => rooms.includes(room));
  const others = LAYERS.flat().filter((other) => other !== room);
  const above = LAYERS.slice(layer)
    .flat()
    .filter((other) => other !== room);
  // Relative specifiers only: `(../)+room/` is another room from anywhere inside src/<room>/.
  return [
    {
      regex: `^(\\.\\./)+(${others.join('|')})/(?!index\\.js$)`,
      message: `Import another room through its index.ts ('../<room>/index.js'), not a file inside it.`,
    },
    ...(above.length === 0
      ? []
      : [
          {
            regex: `^(\\.\\./)+(${above.join('|')})/`,
            message: `'${room}' is in layer ${layer + 1} and imports only rooms of lower layers (see LAYERS in eslint.config.js).`,
          },
        ]),
  ];
}

const roomBoundaries = LAYERS.flat().flatMap((room) => {
  const patterns = boundaryPatterns(room);
  const inner = Object.entries(INNER_LIMITS).filter(([glob]) => glob.startsWith(`src/${room}/`));
  return [
    { files: [`src/${room}/**/*.ts`], rules: { 'no-restricted-imports': ['error', { patterns }] } },
    ...inner.map(([glob, extra]) => ({
      files: [glob],
      rules: { 'no-restricted-imports': ['error', { patterns: [...patterns, ...extra] }] },
    })),
  ];
});

export default tseslint.config(
  // .bundle-test-*: the build a test makes (test/cli/bundle.test.ts), if a run left it behind.
  {
    ignores: ['dist/**', '.bundle-test-*/**', 'node_modules/**', 'data/**', 'test-results/**', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  ...roomBoundaries,
  {
    // Hand-written browser code served by the site.
    files: ['src/site/assets/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Benchmarks, scripts and the CLI talk to a terminal.
    files: ['bench/**', 'scripts/**', 'src/cli/**', 'test/**'],
    rules: { 'no-console': 'off' },
  },
);
