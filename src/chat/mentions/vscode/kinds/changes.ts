/**
 * @changes: the git working tree's diff, through the built-in `vscode.git` extension's API, or a
 * sentence saying why there is none.
 */
import * as vscode from 'vscode';
import type { ContextAttachment, MentionItem } from '../../../../shared/protocol';
import { leftOutNote, withoutSecretDiffs } from '../../../../shared/secretDiffs';
import { makeAttachment, noteOnly } from '../../core/mentions';
import type { Outcome } from './outcome';

/** The part of the `vscode.git` extension's API (version 1) that the changes mention uses. */
interface GitChange {
  readonly uri: vscode.Uri;
  readonly status: number;
}
interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: {
    readonly workingTreeChanges: readonly GitChange[];
    readonly untrackedChanges?: readonly GitChange[];
  };
  diff(cached?: boolean): Promise<string>;
  status(): Promise<void>;
}
interface GitApi {
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: vscode.Event<'uninitialized' | 'initialized'>;
  readonly repositories: readonly GitRepository[];
  openRepository?(root: vscode.Uri): Promise<GitRepository | null>;
}
interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

/** `Status.UNTRACKED` of the git extension's API. */
const UNTRACKED = 7;

/**
 * The working-tree diff of every workspace folder's repository: staged, then unstaged changes,
 * then the names of untracked files (git's diff leaves those out).
 */
async function gitChanges(): Promise<Outcome> {
  const ext = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!ext)
    return {
      ok: false,
      note: vscode.l10n.t('The Git extension of VS Code is not available, so there are no changes to attach.'),
    };
  const git = ext.isActive ? ext.exports : await ext.activate();
  if (!git.enabled)
    return {
      ok: false,
      note: vscode.l10n.t('Git is turned off in VS Code (setting git.enabled), so there are no changes to attach.'),
    };
  const api = await gitApi(git);
  if (!api)
    return {
      ok: false,
      note: vscode.l10n.t('The Git extension of VS Code is not ready, so there are no changes to attach.'),
    };
  if (api.state !== 'initialized') await waitInitialized(api, 5000);
  const folders = vscode.workspace.workspaceFolders ?? [];
  const repos: GitRepository[] = [];
  for (const f of folders) {
    let repo = api.repositories.find((r) => contains(r.rootUri, f.uri) || contains(f.uri, r.rootUri));
    // A repository made after the window opened may not be discovered yet; ask for it.
    if (!repo && api.openRepository) repo = (await api.openRepository(f.uri)) ?? undefined;
    if (repo && !repos.includes(repo)) repos.push(repo);
  }
  if (repos.length === 0) {
    return {
      ok: false,
      note: vscode.l10n.t('No git repository is open in this workspace, so there are no changes to attach.'),
    };
  }
  const parts: string[] = [];
  for (const repo of repos) {
    await repo.status();
    const name = vscode.workspace.asRelativePath(repo.rootUri, true) || repo.rootUri.fsPath;
    // A secret file's diff is its values: named, never attached (../../../../shared/secretDiffs).
    const staged = withoutSecretDiffs((await repo.diff(true)).trim());
    const unstaged = withoutSecretDiffs((await repo.diff(false)).trim());
    const untracked = [
      ...(repo.state.untrackedChanges ?? []),
      ...repo.state.workingTreeChanges.filter((c) => c.status === UNTRACKED),
    ].map((c) => vscode.workspace.asRelativePath(c.uri, false));
    const section: string[] = [];
    const say = (d: { text: string; leftOut: string[] }) => [d.text.trim(), leftOutNote(d.leftOut)].filter(Boolean);
    if (say(staged).length) section.push(`# Staged changes\n${say(staged).join('\n')}`);
    if (say(unstaged).length) section.push(`# Unstaged changes\n${say(unstaged).join('\n')}`);
    if (untracked.length) section.push(`# Untracked files\n${[...new Set(untracked)].sort().join('\n')}`);
    if (section.length === 0) section.push('No changes: the working tree matches HEAD.');
    parts.push(repos.length > 1 ? `## Repository ${name}\n${section.join('\n\n')}` : section.join('\n\n'));
  }
  return { ok: true, text: parts.join('\n\n') };
}

/** The API; right after git is turned on its model is still being made, and getAPI throws until then. */
async function gitApi(git: GitExtension): Promise<GitApi | undefined> {
  for (let i = 0; i < 50; i++) {
    try {
      return git.getAPI(1);
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return undefined;
}

function contains(parent: vscode.Uri, child: vscode.Uri): boolean {
  const p = parent.fsPath.replace(/[\\/]+$/, '');
  return child.fsPath === p || child.fsPath.startsWith(p + '/') || child.fsPath.startsWith(p + '\\');
}

function waitInitialized(api: GitApi, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    const sub = api.onDidChangeState((s) => {
      if (s === 'initialized') done();
    });
    function done() {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    }
  });
}

/** The @changes mention's content. */
export async function resolveChanges(item: MentionItem): Promise<ContextAttachment> {
  const r = await gitChanges();
  return r.ok
    ? makeAttachment({ kind: 'changes', label: item.label, language: 'diff' }, r.text)
    : noteOnly(item, r.note);
}

/** The picker's row. */
export function changesRow(): MentionItem {
  return { kind: 'changes', label: vscode.l10n.t('Changes'), detail: vscode.l10n.t('git working tree'), ref: '' };
}
