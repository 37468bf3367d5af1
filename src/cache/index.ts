/** Bounded in-memory caches that the rooms above share (one home for the primitive). */
export { LruCache } from './lru.js';
