// Types of scripts/checkLayout.mjs for the TypeScript that imports it (its unit test).
export declare const MAX_LINES: number;
export declare const OVER_LIMIT: Record<string, string>;
/** Every problem with the tree at `root`, as sentences naming the file; empty when it is in order. */
export declare function layoutProblems(root: string): string[];
