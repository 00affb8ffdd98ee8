import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  CheckpointRefused,
  CheckpointStore,
  FolderCheckpointStorage,
  readDiskText,
  restoreOps,
  type RestoreOp,
  type RestorePlan,
} from '../core/checkpoints';
import type { HostMessage } from '../../../shared/protocol';
import type { Routes } from '../../conversation/core/routes';

/** URI scheme of the read-only "after restore" documents on the right of a checkpoint diff. */
export const CHECKPOINT_SCHEME = 'gateway-studio-checkpoint';

/** What the checkpoints need of the chat. */
export interface CheckpointChat {
  conversationId(): string;
  /** Ids of every stored conversation and the shown one (checkpoints of others are pruned). */
  conversationIds(): Set<string>;
  busy(): boolean;
  broadcast(msg: HostMessage): void;
  /** Removes the answer and everything after it; false when it could not. */
  cutFrom(answerId: string): Promise<boolean>;
}

/**
 * The VS Code side of checkpoints: the store in the workspace's storage folder (global storage
 * without a folder), the chat's Restore buttons and panel, the diff of one file, and the restore
 * itself as one WorkspaceEdit (one undo step).
 */
export class ChatCheckpoints implements vscode.Disposable {
  readonly store: CheckpointStore;
  private readonly virtual = new Map<string, string>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    /** The folder that holds them ({@link checkpointFolder}). */
    root: string,
    private readonly chat: CheckpointChat,
    log: { warn(msg: string): void },
  ) {
    this.store = new CheckpointStore(new FolderCheckpointStorage(root), {
      onChange: (id) => {
        if (id === chat.conversationId()) void this.refresh();
      },
      warn: (m) => log.warn(m),
    });
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, {
        provideTextDocumentContent: (uri) => this.virtual.get(uri.toString()) ?? '',
      }),
    );
    void this.store.prune(chat.conversationIds()).then(
      (gone) => gone.length && log.warn(`checkpoints of ${gone.length} deleted conversation(s) removed`),
      (e: unknown) => log.warn(`checkpoints not pruned: ${String(e)}`),
    );
  }

  /** The Restore buttons and panel: preview, a file's diff, cancel, restore. */
  readonly routes: Routes<'checkpoints/preview' | 'checkpoints/diff' | 'checkpoints/cancel' | 'checkpoints/restore'> = {
    'checkpoints/preview': (m) => this.preview(m.answerId),
    'checkpoints/diff': (m) => this.openDiff(m.answerId, m.path),
    'checkpoints/cancel': (m) => this.chat.broadcast({ type: 'checkpoints/plan', answerId: m.answerId }),
    'checkpoints/restore': (m) => this.restore(m.answerId, m.overwrite, m.cut),
  };

  /** Sends the shown conversation's checkpoints (its Restore buttons). */
  async refresh(): Promise<void> {
    const conversationId = this.chat.conversationId();
    const answers = await this.store.summaries(conversationId);
    this.chat.broadcast({ type: 'checkpoints/list', conversationId, answers });
  }

  forget(conversationId: string): Promise<void> {
    return this.store.forget(conversationId);
  }

  /** The plan of restoring to before `answerId`, as it stands now (targets and blobs checked again). */
  plan(answerId: string): Promise<RestorePlan | undefined> {
    return this.store.plan(this.chat.conversationId(), answerId, currentText, workspaceRoots());
  }

  /** `{ plan }` (undefined: no checkpoint), or undefined after saying why a check refused the restore. */
  private async checkedPlan(answerId: string): Promise<{ plan: RestorePlan | undefined } | undefined> {
    try {
      return { plan: await this.plan(answerId) };
    } catch (e) {
      if (!(e instanceof CheckpointRefused)) throw e;
      this.chat.broadcast({ type: 'checkpoints/plan', answerId });
      this.notice('error', e.message);
      return undefined;
    }
  }

  async preview(answerId: string): Promise<void> {
    const checked = await this.checkedPlan(answerId);
    if (!checked) return;
    const plan = checked.plan;
    if (!plan) {
      this.notice('warning', vscode.l10n.t('This answer has no checkpoint (it changed no files, or it was removed).'));
      return;
    }
    this.chat.broadcast({
      type: 'checkpoints/plan',
      answerId,
      files: plan.files.map((f) => ({
        path: f.absolute,
        relative: f.relative,
        status: f.status,
        action: f.action,
        diff: f.diff,
      })),
    });
  }

  /** Opens a diff editor: the file now on the left, what Restore would make of it on the right. */
  async openDiff(answerId: string, absolute: string): Promise<void> {
    const file = (await this.checkedPlan(answerId))?.plan?.files.find((f) => f.absolute === absolute);
    if (!file) return;
    const tag = `${Date.now().toString(36)}`;
    const virtual = (kind: string, text: string) => {
      const uri = vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${tag}/${kind}/${file.relative}` });
      this.virtual.set(uri.toString(), text);
      return uri;
    };
    const left = file.current === undefined ? virtual('missing', '') : vscode.Uri.file(file.absolute);
    const right = virtual('restored', file.prior ?? '');
    await vscode.commands.executeCommand(
      'vscode.diff',
      left,
      right,
      vscode.l10n.t('{0}: now ↔ after restore (Gateway Studio)', file.relative),
      { preview: true },
    );
  }

  /**
   * Restores the files of `answerId` and every later answer: one WorkspaceEdit, so one undo
   * brings the answers' changes back. Files changed since are skipped unless in `overwrite`.
   */
  async restore(answerId: string, overwrite: readonly string[], cut: boolean): Promise<void> {
    if (this.chat.busy()) {
      this.notice('warning', vscode.l10n.t('An answer is still running. Stop it first, then restore.'));
      return;
    }
    const checked = await this.checkedPlan(answerId);
    if (!checked) return;
    const plan = checked.plan;
    if (!plan) return this.preview(answerId);
    const { ops, skipped } = restoreOps(plan, new Set(overwrite));
    if (ops.length > 0 && !(await applyRestore(ops))) {
      this.notice('error', vscode.l10n.t('VS Code could not restore the files; nothing was changed.'));
      return;
    }
    this.chat.broadcast({ type: 'checkpoints/plan', answerId });
    const parts = [vscode.l10n.t('Restored {0} file(s) to before the answer.', ops.length)];
    if (skipped.length)
      parts.push(
        vscode.l10n.t('Not restored: {0}.', skipped.map((f) => `${f.relative} (${skipReason(f.status)})`).join(', ')),
      );
    if (cut) {
      if (await this.chat.cutFrom(answerId)) await this.store.dropFrom(plan.conversationId, answerId);
      else parts.push(vscode.l10n.t('The conversation was not cut back (an answer is running or it changed).'));
    }
    this.notice(skipped.length ? 'warning' : 'info', parts.join(' '));
    await this.refresh();
  }

  private notice(level: 'info' | 'warning' | 'error', text: string): void {
    this.chat.broadcast({ type: 'chat/notice', level, text });
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function skipReason(status: string): string {
  return status === 'changed'
    ? vscode.l10n.t('changed since the answer')
    : vscode.l10n.t('its prior content was not recorded');
}

/** Where checkpoints live: the workspace's storage folder, like the conversations' workspace state. */
export function checkpointFolder(context: vscode.ExtensionContext): string {
  return path.join((context.storageUri ?? context.globalStorageUri).fsPath, 'checkpoints');
}

/** The workspace folders on disk, which every restore target must still be inside. */
function workspaceRoots(): { name: string; path: string }[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => ({ name: f.name, path: f.uri.fsPath }));
}

/** A file as the user sees it: an open editor's text (unsaved edits included), else the disk. */
async function currentText(absolute: string): Promise<string | undefined> {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && samePath(d.uri.fsPath, absolute));
  if (doc && !doc.isClosed) return doc.getText();
  return readDiskText(absolute);
}

function samePath(a: string, b: string): boolean {
  const norm = (p: string) =>
    process.platform === 'win32' || process.platform === 'darwin' ? path.normalize(p).toLowerCase() : path.normalize(p);
  return norm(a) === norm(b);
}

/** Applies the operations as one WorkspaceEdit, then saves the documents that had no unsaved edits. */
export async function applyRestore(ops: readonly RestoreOp[]): Promise<boolean> {
  const edit = new vscode.WorkspaceEdit();
  const meta = { label: vscode.l10n.t('Gateway Studio: restore files to before an answer'), needsConfirmation: false };
  const toSave: vscode.TextDocument[] = [];
  for (const op of ops) {
    const uri = vscode.Uri.file(op.absolute);
    if (op.kind === 'delete') edit.deleteFile(uri, { ignoreIfNotExists: true }, meta);
    else if (!op.exists)
      edit.createFile(uri, { overwrite: true, contents: new TextEncoder().encode(op.content) }, meta);
    else {
      const doc = await vscode.workspace.openTextDocument(uri);
      // A document with the user's unsaved edits stays unsaved, as after a tool's edit.
      if (!doc.isDirty) toSave.push(doc);
      edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), op.content, meta);
    }
  }
  if (!(await vscode.workspace.applyEdit(edit))) return false;
  for (const doc of toSave) await doc.save();
  return true;
}
