/**
 * The part of the built-in Git extension's API (`vscode.git`, API version 1, its `git.d.ts`) the
 * commit message uses: the repositories, their diff, log and input box. Declared here rather than
 * copied whole, so the types say exactly what this feature relies on.
 */
import * as vscode from 'vscode';

/** `Status.UNTRACKED` of git.d.ts. */
const UNTRACKED = 7;

export interface GitChange {
  readonly uri: vscode.Uri;
  readonly status: number;
}

export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly inputBox: { value: string };
  readonly state: {
    readonly indexChanges: readonly GitChange[];
    readonly workingTreeChanges: readonly GitChange[];
    /** Present when `git.untrackedChanges` is `separate`. */
    readonly untrackedChanges?: readonly GitChange[];
  };
  readonly ui: { readonly selected: boolean };
  status(): Promise<void>;
  diff(cached?: boolean): Promise<string>;
  log(options?: { maxEntries?: number }): Promise<ReadonlyArray<{ readonly message: string }>>;
}

export interface GitApi {
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: vscode.Event<'uninitialized' | 'initialized'>;
  readonly repositories: readonly GitRepository[];
  getRepository(uri: vscode.Uri): GitRepository | null;
}

interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

/** The API, or why there is none: the extension is not installed, or `git.enabled` is off. */
export type GitLookup = { api: GitApi } | { problem: 'missing' | 'disabled' };

/** How long to wait for the Git extension's first scan of the workspace. */
const INIT_WAIT_MS = 5000;

/** The Git extension's API, once it has looked for repositories (or after {@link INIT_WAIT_MS}). */
export async function gitApi(): Promise<GitLookup> {
  const ext = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!ext) return { problem: 'missing' };
  // The setting first: the extension's own `enabled` follows a change of it only once its
  // configuration listener has run, which may be after this command starts.
  if (vscode.workspace.getConfiguration('git').get<boolean>('enabled') === false) return { problem: 'disabled' };
  const git = ext.isActive ? ext.exports : await ext.activate();
  if (!git.enabled) return { problem: 'disabled' };
  const api = git.getAPI(1);
  if (api.state !== 'initialized') {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, INIT_WAIT_MS);
      const sub = api.onDidChangeState((state) => {
        if (state === 'initialized') done();
      });
      function done(): void {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      }
    });
  }
  return { api };
}

/** The `rootUri` of what the Source Control view passes (its source control), or a URI given directly. */
function rootOf(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  const root = typeof arg === 'object' && arg !== null ? (arg as { rootUri?: unknown }).rootUri : undefined;
  return root instanceof vscode.Uri ? root : undefined;
}

/**
 * The repository to write for: the one the Source Control view's button belongs to; else the only
 * one, the active editor's, the one selected in the view, or the first. Undefined when none is open.
 */
export function pickRepository(api: GitApi, arg: unknown): GitRepository | undefined {
  const root = rootOf(arg);
  if (root) return api.getRepository(root) ?? undefined;
  const all = api.repositories;
  if (all.length <= 1) return all[0];
  const active = vscode.window.activeTextEditor?.document.uri;
  return (active && api.getRepository(active)) || all.find((r) => r.ui.selected) || all[0];
}

/** New files git does not track yet, relative to the repository root. */
export function untrackedPaths(repo: GitRepository): string[] {
  const changes = [
    ...(repo.state.untrackedChanges ?? []),
    ...repo.state.workingTreeChanges.filter((c) => c.status === UNTRACKED),
  ];
  const root = repo.rootUri.path.replace(/\/$/, '');
  return [...new Set(changes.map((c) => c.uri.path))].map((p) =>
    p.startsWith(`${root}/`) ? p.slice(root.length + 1) : p,
  );
}

/** The last `n` commit subjects, newest first; none in a repository without commits. */
export async function recentSubjects(repo: GitRepository, n = 10): Promise<string[]> {
  try {
    const commits = await repo.log({ maxEntries: n });
    return commits.map((c) => c.message.split('\n')[0]!.trim()).filter((s) => s !== '');
  } catch {
    // `git log` fails on a repository whose branch has no commit yet.
    return [];
  }
}
