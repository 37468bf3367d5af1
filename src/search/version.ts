/**
 * The version of the index layout and of everything that decides what is indexed and how it ranks
 * (analyzer, stemmer, build). Bump it with any such change: a saved index snapshot (see
 * src/snapshot) of another version is rebuilt rather than served.
 */
export const SEARCH_ENGINE_VERSION = 4;
