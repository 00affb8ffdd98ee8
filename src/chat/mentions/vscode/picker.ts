/**
 * The host side of @-mentions: the picker's rows for a query, the chips for dropped or "Add File
 * to Chat" files, and on send the content of each mention (files, folders, open editors, the
 * selection, problems, git changes, terminal output, images). Formatting and limits are in
 * `chat/mentions/core/mentions.ts`.
 */
import * as vscode from 'vscode';
import type { ContextAttachment, ImageAttachment, MentionItem } from '../../../shared/protocol';
import { fuzzyFilter } from '../../../shared/fuzzy';
import { gitignoreMatcher, ignoredFolderNames } from '../../tools/core/gitignore';
import { formatFolderListing, formatProblems, makeAttachment, withinBudget, type ProblemEntry } from '../core/mentions';
import { gitChanges, TerminalOutputs } from './mentionSources';
import { basename, extension, IMAGE_MIME, isImage, languageOf, linkOutNote, readText } from './mentionFiles';
import { MentionGuard } from './mentionGuard';

/** How long the workspace's file list is reused between keystrokes of one picker session. */
const FILE_LIST_MS = 5000;
const FILE_LIST_MAX = 20_000;
const PICKER_ROWS = 50;

export interface ResolveOptions {
  /** Whether the conversation's model takes images; undefined when the model list is unknown. */
  acceptsImages: boolean | undefined;
  model: string;
  maxImageBytes: number;
}

export interface Resolved {
  attachments: ContextAttachment[];
  images: ImageAttachment[];
}

export class MentionProvider implements vscode.Disposable {
  private files: { at: number; uris: vscode.Uri[] } | undefined;
  private readonly terminals = new TerminalOutputs();
  /** The references handed to the page: only these are read on send. */
  private readonly guard = new MentionGuard();
  /** The editor the user last worked in: the chat has the focus while the picker is open. */
  private lastEditor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
    this.disposables.push(
      this.terminals,
      vscode.window.onDidChangeActiveTextEditor((e) => {
        if (e) this.lastEditor = e;
      }),
    );
  }

  private editor(): vscode.TextEditor | undefined {
    const e = vscode.window.activeTextEditor ?? this.lastEditor;
    return e && !e.document.isClosed ? e : undefined;
  }

  /** The picker's rows for `query`: the fixed kinds, open editors, then files and folders. */
  async query(query: string): Promise<MentionItem[]> {
    const fixed: MentionItem[] = [];
    const ed = this.editor();
    if (ed && !ed.selection.isEmpty) {
      const s = ed.selection;
      fixed.push({
        kind: 'selection',
        label: vscode.l10n.t('Selection'),
        detail: `${vscode.workspace.asRelativePath(ed.document.uri)}:${s.start.line + 1}-${s.end.line + 1}`,
        ref: '',
      });
    }
    fixed.push({
      kind: 'problems',
      label: vscode.l10n.t('Problems'),
      detail: vscode.l10n.t('the whole workspace'),
      ref: '',
    });
    if (ed && ed.document.uri.scheme === 'file') {
      fixed.push({
        kind: 'problems',
        label: vscode.l10n.t('Problems in {0}', basename(ed.document.uri.path)),
        detail: vscode.workspace.asRelativePath(ed.document.uri),
        ref: ed.document.uri.toString(),
      });
    }
    fixed.push({
      kind: 'changes',
      label: vscode.l10n.t('Changes'),
      detail: vscode.l10n.t('git working tree'),
      ref: '',
    });
    fixed.push({
      kind: 'terminal',
      label: vscode.l10n.t('Terminal'),
      detail: vscode.l10n.t('last command output'),
      ref: '',
    });
    const editors: MentionItem[] = [];
    for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
      if (!(tab.input instanceof vscode.TabInputText)) continue;
      const uri = tab.input.uri;
      if (editors.some((e) => e.ref === uri.toString())) continue;
      editors.push({
        kind: 'editor',
        label: vscode.workspace.asRelativePath(uri),
        detail: vscode.l10n.t('open editor'),
        ref: uri.toString(),
      });
    }
    const paths = await this.workspaceFiles();
    const folders = new Map<string, vscode.Uri>();
    for (const uri of paths) {
      let rel = vscode.workspace.asRelativePath(uri);
      let dir = uri;
      while (rel.includes('/')) {
        rel = rel.slice(0, rel.lastIndexOf('/'));
        dir = vscode.Uri.joinPath(dir, '..');
        if (folders.has(rel)) break;
        folders.set(rel, dir);
      }
    }
    const fileItems: MentionItem[] = paths.map((uri) => {
      const label = vscode.workspace.asRelativePath(uri);
      return { kind: isImage(uri) ? 'image' : 'file', label, ref: uri.toString() };
    });
    const folderItems: MentionItem[] = [...folders].map(([rel, uri]) => ({
      kind: 'folder',
      label: `${rel}/`,
      ref: uri.toString(),
    }));
    const rows =
      query.trim() === ''
        ? [...fixed, ...editors, ...fileItems].slice(0, PICKER_ROWS)
        : fuzzyFilter(query, [...fixed, ...editors, ...folderItems, ...fileItems], (i) => i.label, PICKER_ROWS);
    // A tab outside every workspace folder is a file the user opened there themselves.
    for (const r of rows)
      this.guard.issue1(
        r.ref,
        r.ref && !vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(r.ref)) ? 'user' : 'listed',
      );
    return rows;
  }

  /** Files of the workspace, `files.exclude` applied by VS Code and root `.gitignore`s here. */
  private async workspaceFiles(): Promise<vscode.Uri[]> {
    if (this.files && Date.now() - this.files.at < FILE_LIST_MS) return this.files.uris;
    const ignores: { folder: vscode.WorkspaceFolder; ignored: (rel: string) => boolean }[] = [];
    const early = new Set<string>();
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const text = await readText(vscode.Uri.joinPath(folder.uri, '.gitignore'));
      if (text === undefined) continue;
      ignores.push({ folder, ignored: gitignoreMatcher(text) });
      for (const n of ignoredFolderNames(text)) early.add(n);
    }
    const exclude = await this.excludeGlob(early);
    const found = await vscode.workspace.findFiles('**/*', exclude, FILE_LIST_MAX);
    const uris = found
      .filter((uri) => {
        const folder = vscode.workspace.getWorkspaceFolder(uri);
        const rule = ignores.find((i) => i.folder === folder);
        return !rule || !rule.ignored(vscode.workspace.asRelativePath(uri, false));
      })
      .sort((a, b) => a.path.localeCompare(b.path));
    this.files = { at: Date.now(), uris };
    return uris;
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
    const noContent = (note: string, path?: string): ContextAttachment =>
      makeAttachment({ kind: item.kind, label: item.label, note, ...(path ? { path } : {}) }, '');
    if (item.kind === 'file' || item.kind === 'editor' || item.kind === 'image' || item.kind === 'folder') {
      const refused = await linkOutNote(vscode.Uri.parse(item.ref, true));
      if (refused) return noContent(refused);
    }
    switch (item.kind) {
      case 'file':
      case 'editor': {
        const uri = vscode.Uri.parse(item.ref, true);
        const path = vscode.workspace.asRelativePath(uri, false);
        // An open document's text, unsaved edits included: what the user sees.
        const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
        if (doc)
          return makeAttachment({ kind: item.kind, label: item.label, path, language: doc.languageId }, doc.getText());
        const bytes = await vscode.workspace.fs.readFile(uri);
        if (bytes.subarray(0, 8000).includes(0))
          return noContent(vscode.l10n.t('A binary file: its content is not attached.'), path);
        return makeAttachment(
          { kind: item.kind, label: item.label, path, language: languageOf(uri) },
          new TextDecoder().decode(bytes),
        );
      }
      case 'image':
        return this.image(item, o, images);
      case 'folder': {
        const uri = vscode.Uri.parse(item.ref, true);
        const entries = await vscode.workspace.fs.readDirectory(uri);
        return makeAttachment(
          { kind: 'folder', label: item.label, path: vscode.workspace.asRelativePath(uri, false) },
          formatFolderListing(
            entries.map(([name, type]) => ({ name, directory: (type & vscode.FileType.Directory) !== 0 })),
          ),
        );
      }
      case 'selection': {
        const ed = this.editor();
        if (!ed || ed.selection.isEmpty)
          return noContent(vscode.l10n.t('No text was selected when the message was sent.'));
        const s = ed.selection;
        const path = vscode.workspace.asRelativePath(ed.document.uri, false);
        return makeAttachment(
          {
            kind: 'selection',
            label: path,
            path,
            startLine: s.start.line + 1,
            endLine: s.end.line + 1,
            language: ed.document.languageId,
          },
          ed.document.getText(s),
        );
      }
      case 'problems': {
        const only = item.ref ? vscode.Uri.parse(item.ref, true) : undefined;
        const all: [vscode.Uri, readonly vscode.Diagnostic[]][] = only
          ? [[only, vscode.languages.getDiagnostics(only)]]
          : vscode.languages.getDiagnostics();
        const entries: ProblemEntry[] = all.flatMap(([uri, diags]) =>
          diags.map((d) => ({
            path: vscode.workspace.asRelativePath(uri, false),
            line: d.range.start.line + 1,
            column: d.range.start.character + 1,
            severity: SEVERITY[d.severity],
            message: d.message,
            ...(d.source ? { source: d.source } : {}),
          })),
        );
        return makeAttachment(
          {
            kind: 'problems',
            label: item.label,
            ...(only ? { path: vscode.workspace.asRelativePath(only, false) } : {}),
          },
          formatProblems(entries),
        );
      }
      case 'changes': {
        const r = await gitChanges();
        return r.ok
          ? makeAttachment({ kind: 'changes', label: item.label, language: 'diff' }, r.text)
          : noContent(r.note);
      }
      case 'terminal': {
        const r = this.terminals.lastOutput();
        return r.ok
          ? makeAttachment(
              {
                kind: 'terminal',
                label: r.label ? `${item.label}: ${r.label}` : item.label,
                ...(r.note ? { note: r.note } : {}),
              },
              r.text,
            )
          : noContent(r.note);
      }
    }
  }

  /**
   * An image goes as an image part when the model takes images; either way the model is told its
   * workspace path, so it can pass it on (as the reference image of generate_video, say).
   */
  private async image(item: MentionItem, o: ResolveOptions, images: ImageAttachment[]): Promise<ContextAttachment> {
    const uri = vscode.Uri.parse(item.ref, true);
    const path = vscode.workspace.asRelativePath(uri, false);
    const base = { kind: 'image' as const, label: item.label, path };
    const usePath = vscode.l10n.t(
      'Its workspace path is {0}; tools that take a file (such as reference images of generate_video) accept that path.',
      path,
    );
    if (o.acceptsImages === false) {
      return makeAttachment(
        {
          ...base,
          note: `${vscode.l10n.t('The image was not sent: the model {0} does not take images.', o.model)} ${usePath}`,
        },
        '',
      );
    }
    const bytes = await vscode.workspace.fs.readFile(uri);
    if (bytes.byteLength > o.maxImageBytes) {
      const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
      return makeAttachment(
        {
          ...base,
          note: `${vscode.l10n.t('The image was not sent: it is {0} MB; the limit is {1} MB (setting gatewayStudio.chat.maxImageMegabytes).', mb(bytes.byteLength), mb(o.maxImageBytes))} ${usePath}`,
        },
        '',
      );
    }
    const mime = IMAGE_MIME[extension(uri)] ?? 'image/png';
    images.push({
      name: path,
      mime,
      dataUrl: `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`,
      bytes: bytes.byteLength,
    });
    return makeAttachment(
      { ...base, note: `${vscode.l10n.t('The image is attached below as an image part.')} ${usePath}` },
      '',
    );
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;
