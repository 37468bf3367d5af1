/** Derived data kept on disk between runs, checked before use (see snapshot.ts). */
export {
  ABANDONED_TEMPORARY_MS,
  readSnapshot,
  SNAPSHOT_FORMAT,
  snapshotKeyDifference,
  writeFileAtomically,
  writeSnapshot,
} from './snapshot.js';
export type { ReadSnapshotOptions, SnapshotKey, SnapshotRead } from './snapshot.js';
