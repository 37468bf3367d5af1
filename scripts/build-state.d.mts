/** Types of build-state.mjs, for the benchmark and the tests that import it. */
export declare const STAMP_PATH: string;
export declare const ENTRY_PATH: string;
export declare function sourceHash(root: string): string;
export declare function staleReason(root: string): string | null;
export declare function writeStamp(root: string): void;
export declare function ensureBuilt(root: string): boolean;
