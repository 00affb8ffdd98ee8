// Types of scripts/imageFamilies.mjs for the TypeScript that imports it (its unit test).
export declare const CATALOG: string;
export declare const START: string;
export declare const END: string;
export declare const READMES: Record<string, 'en' | 'zh'>;
/** The Markdown table of the catalog's families in `lang`. */
export declare function familiesTable(catalog: { families: object[] }, lang: 'en' | 'zh'): string;
/** `text` with the table between the markers replaced, or undefined when a marker is missing. */
export declare function withTable(text: string, table: string): string | undefined;
/** Why the READMEs under `root` do not carry the catalog's table; empty when they do. */
export declare function tableProblems(root: string, options?: { write?: boolean }): string[];
