/**
 * The host side of @-mentions: the picker's rows for a query, the chips for dropped or "Add File
 * to Chat" files, and on send the content of each mention, through the kind's own file in
 * `kinds/` (file and open editor, folder, image, selection, problems, changes, terminal).
 * Formatting and limits are in `chat/mentions/core/mentions.ts`.
 */
import * as vscode from 'vscode';
import type { ContextAttachment, ImageAttachment, MentionItem } from '../../../shared/protocol';
import { activeEditors } from '../../../platform/activeEditor';
import { gitignoreMatcher, ignoredFolderNames } from '../../../shared/gitignore';
import { noteOnly, withinBudget } from '../core/mentions';
import { PathIndex, type FolderRow } from '../core/pathIndex';
import { changesRow, resolveChanges } from './kinds/changes';
import { editorRows, resolveFile } from './kinds/file';
import { resolveFolder } from './kinds/folder';
import { resolveImage, type ImageOptions } from './kinds/image';
import { problemsRows, resolveProblems } from './kinds/problems';
import { resolveSelection, selectionRow } from './kinds/selection';
import { resolveTerminal, terminalRow, TerminalOutputs } from './kinds/terminal';
import { isImage, linkOutNote, readText } from './mentionFiles';
import { MentionGuard } from './mentionGuard';

/** Files the index holds at most (a larger workspace is listed up to this many). */
const FILE_LIST_MAX = 100_000;
/** Created files are added in batches; a burst larger than this (a checkout) lists everything again. */
const CREATE_BATCH_MAX = 500;
const CREATE_DEBOUNCE_MS = 300;
const PICKER_ROWS = 50;

/** What resolving depends on: the conversation's model (for images). */
export type ResolveOptions = ImageOptions;

/**
 * Rows and contents another capability adds (the MCP servers' resources), handed in by the chat's
 * composition point; their refs are issued and checked like the others, but name no file.
 */
export interface ExtraMentions {
  rows(): MentionItem[];
  resolve(item: MentionItem, o: ResolveOptions, images: ImageAttachment[]): Promise<ContextAttachment>;
}

/** Rows of {@link ExtraMentions} listed before the files when nothing is typed yet. */
const EXTRA_ROWS_UNTYPED = 10;

export interface Resolved {
  attachments: ContextAttachment[];
  images: ImageAttachment[];
}

export class MentionProvider implements vscode.Disposable {
  /** The workspace's files, listed once (on the first query) and then kept by the watcher. */
  private readonly index = new PathIndex();
  private indexed: Promise<void> | undefined;
  private created = new Map<string, vscode.Uri>();
  private createTimer: ReturnType<typeof setTimeout> | undefined;
  /** The newest query: an older one still waiting for the first listing is not computed. */
  private latestQuery = 0;
  private readonly terminals = new TerminalOutputs();
  /** The references handed to the page: only these are read on send. */
  private readonly guard = new MentionGuard();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly extra?: ExtraMentions) {
    this.disposables.push(this.terminals);
    const watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    // An edited .gitignore changes what is listed as much as a new one (the watcher above skips edits).
    const ignores = vscode.workspace.createFileSystemWatcher('**/.gitignore', true, false, true);
    this.disposables.push(
      watcher,
      ignores,
      ignores.onDidChange(() => this.relist()),
      watcher.onDidCreate((uri) => this.onCreated(uri)),
      watcher.onDidDelete((uri) => {
        this.created.delete(uri.toString());
        this.index.remove(uri.toString());
        if (uri.path.endsWith('/.gitignore')) this.relist();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('files.exclude')) this.relist();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.relist()),
      { dispose: () => clearTimeout(this.createTimer) },
    );
  }

  /** The editor the user last worked in: the chat has the focus while the picker is open. */
  private editor(): vscode.TextEditor | undefined {
    return activeEditors().current();
  }

  /** The picker's rows for `query`: the fixed kinds, open editors, then files and folders. */
  async query(query: string): Promise<MentionItem[]> {
    const mine = ++this.latestQuery;
    await (this.indexed ??= this.listAll());
    // The page shows only the newest query's rows; one typed over while the list was made is moot.
    if (mine !== this.latestQuery) return [];
    const ed = this.editor();
    const selection = selectionRow(ed);
    const fixed: MentionItem[] = [...(selection ? [selection] : []), ...problemsRows(ed), changesRow(), terminalRow()];
    const editors = editorRows();
    const extra = this.extra?.rows() ?? [];
    const rows =
      query.trim() === ''
        ? [...fixed, ...editors, ...extra.slice(0, EXTRA_ROWS_UNTYPED), ...this.index.first(PICKER_ROWS)].slice(
            0,
            PICKER_ROWS,
          )
        : this.index.search(query, [...fixed, ...editors, ...extra], PICKER_ROWS);
    // A tab outside every workspace folder is a file the user opened there themselves.
    for (const r of rows)
      this.guard.issue1(
        r.ref,
        r.ref && !vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(r.ref)) ? 'user' : 'listed',
      );
    return rows;
  }

  /** Lists the workspace again from scratch (ignore rules or folders changed), at the next query. */
  private relist(): void {
    this.indexed = undefined;
  }

  private async listAll(): Promise<void> {
    const uris = await this.workspaceFiles('**/*');
    this.index.clear();
    for (const uri of uris.sort((a, b) => a.path.localeCompare(b.path))) this.addToIndex(uri);
  }

  private onCreated(uri: vscode.Uri): void {
    if (uri.path.endsWith('/.gitignore')) return this.relist();
    this.created.set(uri.toString(), uri);
    clearTimeout(this.createTimer);
    this.createTimer = setTimeout(() => void this.addCreated(), CREATE_DEBOUNCE_MS);
  }

  /** New files through the same listing rules as the first one (VS Code's exclude, .gitignore). */
  private async addCreated(): Promise<void> {
    const batch = [...this.created.values()];
    this.created.clear();
    if (!this.indexed || batch.length === 0) return;
    await this.indexed;
    const rels = batch.map((u) => vscode.workspace.asRelativePath(u, false));
    // A path with glob characters cannot be named in a pattern: list everything again instead.
    if (batch.length > CREATE_BATCH_MAX || rels.some((r) => /[{}[\]*?,!]/.test(r))) return this.relist();
    for (const uri of await this.workspaceFiles(`{${rels.join(',')}}`)) this.addToIndex(uri);
  }

  private addToIndex(uri: vscode.Uri): void {
    const label = vscode.workspace.asRelativePath(uri);
    const folders: FolderRow[] = [];
    let rel = label;
    let dir = uri;
    while (rel.includes('/')) {
      rel = rel.slice(0, rel.lastIndexOf('/'));
      dir = vscode.Uri.joinPath(dir, '..');
      folders.push({ rel, ref: dir.toString() });
    }
    this.index.add({ kind: isImage(uri) ? 'image' : 'file', label, ref: uri.toString() }, folders);
  }

  /** Files of the workspace matching `include`, `files.exclude` applied by VS Code and root `.gitignore`s here. */
  private async workspaceFiles(include: string): Promise<vscode.Uri[]> {
    const ignores: { folder: vscode.WorkspaceFolder; ignored: (rel: string) => boolean }[] = [];
    const early = new Set<string>();
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const text = await readText(vscode.Uri.joinPath(folder.uri, '.gitignore'));
      if (text === undefined) continue;
      ignores.push({ folder, ignored: gitignoreMatcher(text) });
      for (const n of ignoredFolderNames(text)) early.add(n);
    }
    const exclude = await this.excludeGlob(early);
    const found = await vscode.workspace.findFiles(include, exclude, FILE_LIST_MAX);
    return found.filter((uri) => {
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      const rule = ignores.find((i) => i.folder === folder);
      return !rule || !rule.ignored(vscode.workspace.asRelativePath(uri, false));
    });
  }

  /**
   * `findFiles` drops `files.exclude` once an exclude is given, so the setting's patterns go into
   * the one we pass, together with the folders `.gitignore` ignores wholesale (so their contents
   * are never listed at all). With nothing of ours to add, VS Code's default applies.
   */
  private excludeGlob(early: Set<string>): Promise<string | undefined> {
    if (early.size === 0) return Promise.resolve(undefined);
    const setting = vscode.workspace.getConfiguration('files').get<Record<string, unknown>>('exclude') ?? {};
    const patterns = Object.entries(setting)
      .filter(([k, v]) => v === true && !/[{}]/.test(k))
      .map(([k]) => k);
    for (const n of early) patterns.push(`**/${n}/**`);
    return Promise.resolve(`{${patterns.join(',')}}`);
  }

  /**
   * Chips for files given by URI (a drop from the explorer, Add File to Chat). A file outside the
   * workspace becomes a chip only when the user says so (a drop arrives through the page, which
   * could make one up).
   */
  async fromUris(uris: vscode.Uri[]): Promise<{ items: MentionItem[]; problems: string[] }> {
    const items: MentionItem[] = [];
    const { admitted, problems } = await this.guard.admit(uris);
    for (const [uri, origin] of admitted) {
      this.guard.issue1(uri.toString(), origin);
      let type: vscode.FileType;
      try {
        type = (await vscode.workspace.fs.stat(uri)).type;
      } catch {
        problems.push(vscode.l10n.t('{0} was not found.', uri.fsPath || uri.toString()));
        continue;
      }
      const label = vscode.workspace.asRelativePath(uri);
      if (type & vscode.FileType.Directory) items.push({ kind: 'folder', label: `${label}/`, ref: uri.toString() });
      else items.push({ kind: isImage(uri) ? 'image' : 'file', label, ref: uri.toString() });
    }
    return { items, problems };
  }

  /** The content of each mention, as the model will see it; never throws (a failure is a note). */
  async resolve(items: MentionItem[], o: ResolveOptions): Promise<Resolved> {
    const attachments: ContextAttachment[] = [];
    const images: ImageAttachment[] = [];
    for (const item of items) {
      try {
        const refused = await this.guard.refusal(item);
        if (refused) {
          attachments.push({ kind: item.kind, label: item.label, text: '', note: refused });
          continue;
        }
        const a = await this.resolveOne(item, o, images);
        attachments.push(a);
      } catch (err) {
        attachments.push({
          kind: item.kind,
          label: item.label,
          text: '',
          note: vscode.l10n.t('Could not be read: {0}', err instanceof Error ? err.message : String(err)),
        });
      }
    }
    return { attachments: withinBudget(attachments), images };
  }

  private async resolveOne(
    item: MentionItem,
    o: ResolveOptions,
    images: ImageAttachment[],
  ): Promise<ContextAttachment> {
    if (item.kind === 'file' || item.kind === 'editor' || item.kind === 'image' || item.kind === 'folder') {
      const refused = await linkOutNote(vscode.Uri.parse(item.ref, true));
      if (refused) return noteOnly(item, refused);
    }
    switch (item.kind) {
      case 'file':
      case 'editor':
        return resolveFile(item);
      case 'image':
        return resolveImage(item, o, images);
      case 'folder':
        return resolveFolder(item);
      case 'selection':
        return resolveSelection(item, this.editor());
      case 'problems':
        return resolveProblems(item);
      case 'changes':
        return resolveChanges(item);
      case 'terminal':
        return resolveTerminal(item, this.terminals);
      case 'mcpResource':
        return this.extra ? this.extra.resolve(item, o, images) : noteOnly(item, '');
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
