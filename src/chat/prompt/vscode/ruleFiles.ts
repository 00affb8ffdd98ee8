// Where the rules and instructions files are, from the one list (../core/promptSources): the
// places in each workspace folder and the documented user-level folders (the home folder's
// `.claude` and `.copilot`, the VS Code profile's `prompts`), nothing else. A workspace file is
// read only when it is no link out of the workspace and no secret (the one rule,
// ../../../platform/workspaceLinks); the user's own files are theirs to point anywhere.
import * as os from 'node:os';
import * as vscode from 'vscode';
import { leadsToSecret, linkOutOfWorkspace } from '../../../platform/workspaceLinks';
import { FOLDER_LIMITS, PROMPT_SOURCES, type FolderPattern, type RuleKind } from '../core/promptSources';
import type { ScopeRule } from '../core/instructionsFile';

/** One file of the list that exists (or may: fixed places are tried by reading them). */
export interface RuleCandidate {
  readonly uri: vscode.Uri;
  /** The chip's id: workspace-relative, `~/…` in the home folder, `User/prompts/…` in the profile. */
  readonly id: string;
  readonly kind: RuleKind;
  readonly scope?: ScopeRule;
  /** Index of its workspace folder; undefined for the user's own files. */
  readonly folder?: number;
}

export interface UserPlaces {
  /** The home folder (tests give their own). */
  home?: vscode.Uri;
  /** The VS Code profile's `prompts` folder, where VS Code keeps user instructions files. */
  profilePrompts?: vscode.Uri;
}

/**
 * The user's places: the home folder, and the VS Code profile's `prompts` folder, found beside the
 * extension's storage of the same profile (`<profile>/globalStorage/<extension>`).
 */
export function defaultUserPlaces(globalStorage: vscode.Uri): UserPlaces {
  return {
    home: vscode.Uri.file(os.homedir()),
    profilePrompts: vscode.Uri.joinPath(globalStorage, '..', '..', 'prompts'),
  };
}

/** Every file the list names, workspace folders first (in the list's order), then the user's. */
export async function ruleCandidates(user: UserPlaces): Promise<RuleCandidate[]> {
  const out: RuleCandidate[] = [];
  const folders = vscode.workspace.workspaceFolders ?? [];
  for (const [i, f] of folders.entries())
    for (const s of PROMPT_SOURCES) {
      const base = { kind: s.chip, folder: i, ...(s.scope ? { scope: s.scope } : {}) };
      for (const file of s.files) {
        const uri = vscode.Uri.joinPath(f.uri, ...file.split('/'));
        out.push({ ...base, uri, id: ruleId(uri) });
      }
      for (const p of s.folders)
        for (const uri of await walk(vscode.Uri.joinPath(f.uri, ...p.folder.split('/')), p))
          out.push({ ...base, uri, id: ruleId(uri) });
    }
  for (const s of PROMPT_SOURCES) {
    const base = { kind: s.chip, ...(s.scope ? { scope: s.scope } : {}) };
    const home = user.home;
    if (home) {
      for (const file of s.user?.files ?? [])
        out.push({ ...base, uri: vscode.Uri.joinPath(home, ...file.split('/')), id: `~/${file}` });
      for (const p of s.user?.folders ?? [])
        for (const uri of await walk(vscode.Uri.joinPath(home, ...p.folder.split('/')), p))
          out.push({ ...base, uri, id: `~/${relativeTo(home, uri)}` });
    }
    const suffix = s.user?.profilePrompts;
    if (suffix && user.profilePrompts)
      for (const uri of await walk(user.profilePrompts, { folder: '', suffix, recursive: false }))
        out.push({ ...base, uri, id: `User/prompts/${relativeTo(user.profilePrompts, uri)}` });
  }
  // A workspace folder that is the home folder (or holds it) names the same file twice: read it once.
  const seen = new Set<string>();
  return out.filter((c) => !seen.has(c.uri.toString()) && Boolean(seen.add(c.uri.toString())));
}

/** The files below `dir` ending in the pattern's suffix, in name order, within FOLDER_LIMITS. */
async function walk(dir: vscode.Uri, p: FolderPattern, depth = 0, found: vscode.Uri[] = []): Promise<vscode.Uri[]> {
  const entries = await vscode.workspace.fs.readDirectory(dir).then(
    (e) => e,
    () => [] as [string, vscode.FileType][],
  );
  for (const [name, type] of entries.sort(([a], [b]) => a.localeCompare(b))) {
    if (found.length >= FOLDER_LIMITS.files) break;
    const uri = vscode.Uri.joinPath(dir, name);
    // A linked folder is not walked: it could loop, or lead anywhere.
    const isLink = (type & vscode.FileType.SymbolicLink) !== 0;
    if ((type & vscode.FileType.Directory) !== 0 && !isLink) {
      if (p.recursive && depth + 1 < FOLDER_LIMITS.depth) await walk(uri, p, depth + 1, found);
    } else if ((type & vscode.FileType.File) !== 0 && name.toLowerCase().endsWith(p.suffix.toLowerCase())) {
      found.push(uri);
    }
  }
  return found;
}

function relativeTo(base: vscode.Uri, uri: vscode.Uri): string {
  return uri.path.slice(base.path.replace(/\/$/, '').length + 1);
}

export function ruleId(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

/** Why a workspace file is not read: a link out of the workspace or to a secret; undefined: read it. */
export async function refusal(uri: vscode.Uri): Promise<'linkOut' | 'secret' | undefined> {
  if ((await linkOutOfWorkspace(uri)) !== undefined) return 'linkOut';
  return (await leadsToSecret(uri)) ? 'secret' : undefined;
}

export async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}
