// Types of ensureSetup.mjs for the TypeScript callers (test/host, test/webview, test/unit).
export declare const BROWSER_ENV: 'GWS_BROWSER';
export declare function ensureNode(who: string, version?: string): void;
export declare function dependencyProblem(root: string, exists?: (path: string) => boolean): string | undefined;
export declare function ensureDependencies(root: string, who: string): void;
export declare function isExecutable(path: string): boolean;
export declare function browserPaths(platform: string, home: string): string[];
export type BrowserSearch =
  | { path: string; from: string; error?: undefined; looked?: undefined }
  | { path?: undefined; from?: undefined; error: string; looked: string[] };
export declare function findBrowser(opts?: {
  env?: Record<string, string | undefined>;
  platform?: string;
  home?: string;
  fsRoot?: string;
  canRun?: (path: string) => boolean;
}): BrowserSearch;
export declare function noBrowserMessage(stages: string[], found: { error: string; looked: string[] }): string;
export interface SystemInfo {
  isRoot: boolean;
  debianLike: boolean;
  hasAptGet: boolean;
}
export declare function systemInfo(): SystemInfo;
export declare function missingHostBuildPackages(
  exists?: (path: string) => boolean,
  has?: (cmd: string) => boolean,
): string[];
export declare function missingHostTestPackages(has?: (cmd: string) => boolean): string[];
export declare function packagePlan(
  missing: string[],
  info: SystemInfo,
): { run: string[][]; stop?: undefined } | { run?: undefined; stop: string };
export declare function ensureSystemPackages(missing: string[], who: string, info?: SystemInfo): void;
export declare function ensureBrowser(who: string, stages: string[]): string | undefined;
