// Types for scripts/bundle.mjs (imported by test/cli/bundle.test.ts).
/** The modules bundled, as source paths; each lands at the same place under the output folder. */
export declare const ENTRY_POINTS: readonly string[];
/** Packages left outside the bundle, loaded from node_modules when first used. */
export declare const LOADED_ON_DEMAND: readonly string[];
/** Bundles into `outdir` (emptied first). */
export declare function bundle(outdir: string): Promise<void>;
