// Types for scripts/bundle.mjs (imported by test/cli/bundle.test.ts).
/** The modules bundled, as source paths; each lands at the same place under the output folder. */
export declare const ENTRY_POINTS: readonly string[];
/** Packages left outside the bundle, loaded from node_modules when first used. */
export declare const LOADED_ON_DEMAND: readonly string[];
/** `code` with every character outside ASCII written as a `\uXXXX` escape (esbuild output only). */
export declare function asciiOnly(code: string): string;
/** esbuild's output files for `outdir`, in memory, before asciiOnly. */
export declare function bundledFiles(outdir: string): Promise<{ path: string; text: string }[]>;
/** Bundles into `outdir` (emptied first). */
export declare function bundle(outdir: string): Promise<void>;
