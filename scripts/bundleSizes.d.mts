// Types of scripts/bundleSizes.mjs for the TypeScript that imports it (its unit test, the bench).
export declare const HOST_BUDGET_KB: number;
export declare const PAGE_BUDGET_KB: number;
export declare const GALLERY_BUDGET_KB: number;
/** The relative files `file` imports statically, as absolute paths. */
export declare function staticImports(file: string): string[];
/** The entry and every file it loads before it runs, each once. */
export declare function loadedWith(entry: string): string[];
/** The report's lines and whether a budget is exceeded, for the bundles in `dist`. */
export declare function bundleReport(dist: string): { lines: string[]; over: boolean };
