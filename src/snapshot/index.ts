/** Derived data kept on disk between runs, checked before use (see snapshot.ts). */
export { readSnapshot, SNAPSHOT_FORMAT, writeSnapshot } from './snapshot.js';
export type { SnapshotKey, SnapshotRead } from './snapshot.js';
