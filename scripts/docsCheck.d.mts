// Types of scripts/docsCheck.mjs for the TypeScript that imports it (its unit test).
export declare const README_MAX_LINES: number;
export declare const READMES: string[];
export declare function markdownFiles(root: string): string[];
/** GitHub's heading slug. */
export declare function slug(heading: string): string;
export declare function anchors(text: string): Set<string>;
export declare function linkTargets(text: string): string[];
/** Every problem with the Markdown under `root`, as sentences naming the file; empty when in order. */
export declare function docsProblems(root: string): string[];
