// Types of scripts/packageVsix.mjs for the TypeScript that imports it (its unit test, the vsix stage).
/** The files of `list` (paths inside the package) that no user needs, each with why. */
export declare function unwantedFiles(list: string[]): string[];
/** What the bundles of esbuild's `metafiles` need at run time that the package's `list` lacks. */
export declare function missingAtRuntime(
  metafiles: { outputs: Record<string, { imports?: { path: string; kind?: string; external?: boolean }[] }> }[],
  list: string[],
): string[];
/** vsce's output lines that are warnings or errors. */
export declare function vsceComplaints(output: string): string[];
/** Packages the extension into `out` and checks it; the problems found (none: ok). */
export declare function packageVsix(root: string, out: string): string[];
