import * as vscode from 'vscode';
import * as path from 'node:path';
import { checkInside, realpathOrSelf } from '../../../files/insideWorkspace';
import { gitignoreMatcher } from '../../../shared/gitignore';
import { isSecretPath } from '../../../shared/sensitiveFiles';
import { gitExcludeMatcher } from '../core/gitExcludes';

/** Why a document gets no request (for the log and the tests), or undefined when it may. */
export type Refusal =
  | 'scheme'
  | 'no-language'
  | 'secret'
  | 'too-large'
  | 'binary'
  | 'outside-workspace'
  | 'excluded'
  | 'ignored'
  | 'git-excluded';

const NO_LANGUAGE = new Set(['', 'plaintext', 'raw']);
/** Eligibility is remembered this long per file (a .gitignore edited meanwhile is seen after it). */
const TTL_MS = 10_000;
const MAX_GITIGNORE_BYTES = 256 * 1024;

/**
 * Which documents may be completed and quoted as context: files of the workspace (a notebook's
 * cells count as its file, when they have a language), not over the size limit, not binary, not
 * hidden by `files.exclude` nor ignored by a `.gitignore`, `.git/info/exclude` or the global
 * excludes file, not a link that leads out of the workspace, and not a secret file
 * (../../../shared/sensitiveFiles: `.env`, keys, kubeconfig…, by its name or its link's target's,
 * or a document in the `dotenv` language, whatever it is called). Untitled buffers and other
 * schemes are out: they are not in the workspace. Neighbours pass the same check.
 */
export class Eligibility implements vscode.Disposable {
  private readonly byFile = new Map<string, { at: number; refusal: Refusal | undefined }>();
  /** Parsed .gitignore files by their modification time and size: a cheap stat tells a stale one. */
  private readonly gitignores = new Map<
    string,
    { mtime: number; size: number; match: ((rel: string) => boolean) | undefined }
  >();
  private readonly gitExcludes = new Map<string, { at: number; match: Promise<(file: string) => boolean> }>();
  private readonly sub = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('files.exclude')) this.byFile.clear();
  });
  // A .gitignore written or removed counts at once, not after the cache's time.
  private readonly watcher = vscode.workspace.createFileSystemWatcher('**/.gitignore');
  private readonly watching = [this.watcher.onDidChange, this.watcher.onDidCreate, this.watcher.onDidDelete].map((on) =>
    on(() => {
      this.byFile.clear();
      this.gitignores.clear();
    }),
  );

  /** Refusal for `doc` with a size limit of `maxBytes`; cached per file except size and content. */
  async check(doc: vscode.TextDocument, maxBytes: number): Promise<Refusal | undefined> {
    const file = fileUriOf(doc);
    if (!file) return 'scheme';
    if (doc.uri.scheme === 'vscode-notebook-cell' && NO_LANGUAGE.has(doc.languageId)) return 'no-language';
    // Before anything is read or cached: a secret file is never sent, whatever else holds.
    if (doc.languageId === 'dotenv' || isSecretPath(vscode.workspace.asRelativePath(file, false))) return 'secret';
    // The text's length in UTF-16 units is a floor on its bytes: a cheap check before any reading.
    const length = doc.getText().length;
    if (length > maxBytes) return 'too-large';
    if (doc.getText(new vscode.Range(0, 0, Math.min(doc.lineCount, 200), 0)).includes('\u0000')) return 'binary';
    const key = file.toString();
    const hit = this.byFile.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.refusal;
    const refusal = await this.place(file);
    this.byFile.set(key, { at: Date.now(), refusal });
    return refusal;
  }

  private async place(file: vscode.Uri): Promise<Refusal | undefined> {
    const folder = vscode.workspace.getWorkspaceFolder(file);
    if (!folder || folder.uri.scheme !== 'file') return 'outside-workspace';
    const roots = (vscode.workspace.workspaceFolders ?? [])
      .filter((f) => f.uri.scheme === 'file')
      .map((f) => f.uri.fsPath);
    const inside = await checkInside(file.fsPath, roots);
    if (!inside.inside) return 'outside-workspace';
    // A harmless name may link to a secret file inside the workspace (notes.txt -> .env).
    if (isSecretPath(path.relative(await realpathOrSelf(inside.root), inside.real))) return 'secret';
    const rel = vscode.workspace.asRelativePath(file, false).replace(/\\/g, '/');
    if (this.excluded(folder, file)) return 'excluded';
    if (await this.ignored(folder, rel)) return 'ignored';
    if ((await this.gitExcludesOf(path.dirname(file.fsPath), folder.uri.fsPath))(file.fsPath)) return 'git-excluded';
    return undefined;
  }

  /** `files.exclude` by VS Code's own glob matching (`languages.match` on a relative pattern). */
  private excluded(folder: vscode.WorkspaceFolder, file: vscode.Uri): boolean {
    const patterns =
      vscode.workspace.getConfiguration('files', folder.uri).get<Record<string, unknown>>('exclude') ?? {};
    const probe = { uri: file, languageId: '', notebook: undefined } as unknown as vscode.TextDocument;
    return Object.entries(patterns).some(
      ([glob, on]) =>
        on === true && vscode.languages.match({ pattern: new vscode.RelativePattern(folder, glob) }, probe) > 0,
    );
  }

  /** Whether a `.gitignore` of the root or of a folder on the way down ignores `rel`. */
  private async ignored(folder: vscode.WorkspaceFolder, rel: string): Promise<boolean> {
    const parts = rel.split('/');
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i);
      const match = await this.gitignoreOf(vscode.Uri.joinPath(folder.uri, ...dir, '.gitignore'));
      if (match?.(parts.slice(i).join('/'))) return true;
    }
    return false;
  }

  /**
   * The matcher of the `.gitignore` at `uri`, or undefined when there is none. Stated each time
   * (the file's own check is cached for {@link TTL_MS}): a .gitignore written a moment ago counts
   * for the next file checked even before the watcher's event arrives, which in a remote
   * workbench can come seconds later.
   */
  private async gitignoreOf(uri: vscode.Uri): Promise<((rel: string) => boolean) | undefined> {
    const key = uri.toString();
    let stat: vscode.FileStat;
    try {
      stat = await vscode.workspace.fs.stat(uri);
    } catch {
      this.gitignores.delete(key); // No .gitignore here.
      return undefined;
    }
    if (stat.type !== vscode.FileType.File || stat.size > MAX_GITIGNORE_BYTES) return undefined;
    const hit = this.gitignores.get(key);
    if (hit && hit.mtime === stat.mtime && hit.size === stat.size) return hit.match;
    let match: ((rel: string) => boolean) | undefined;
    try {
      match = gitignoreMatcher(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    } catch {
      return undefined; // Gone or unreadable between the stat and the read: as if absent.
    }
    this.gitignores.set(key, { mtime: stat.mtime, size: stat.size, match });
    return match;
  }

  /** `.git/info/exclude` and the global excludes file, per folder for {@link TTL_MS}. */
  private gitExcludesOf(dir: string, root: string): Promise<(file: string) => boolean> {
    const hit = this.gitExcludes.get(dir);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.match;
    const match = gitExcludeMatcher(dir, root).catch(() => () => false);
    this.gitExcludes.set(dir, { at: Date.now(), match });
    return match;
  }

  dispose(): void {
    this.sub.dispose();
    this.gitExcludes.clear();
    for (const d of this.watching) d.dispose();
    this.watcher.dispose();
    this.byFile.clear();
    this.gitignores.clear();
  }
}

/** The file a document belongs to (a notebook cell's notebook), or undefined for other schemes. */
export function fileUriOf(doc: vscode.TextDocument): vscode.Uri | undefined {
  if (doc.uri.scheme === 'file') return doc.uri;
  if (doc.uri.scheme === 'vscode-notebook-cell') return doc.uri.with({ scheme: 'file', fragment: '' });
  return undefined;
}
