import * as vscode from 'vscode';
import { promises as fs } from 'node:fs';
import type { Services } from '../../../platform/services';
import { readSettings } from '../../../platform/settings';
import { pageHtml } from '../../../platform/webviewPage';
import {
  storyboardWebviewMessageSchema,
  MAX_EXPORT_BYTES,
  type BoardView,
  type ExportReply,
  type StoryboardHostMessage,
  type StoryboardWebviewMessage,
} from '../../../shared/protocol/storyboard';
import { STORYBOARD_STRINGS } from '../../../shared/storyboardStrings';
import { GALLERY_STRINGS } from '../../../shared/galleryStrings';
import type { VideoFeature } from '../../base/vscode/feature';
import { applyEdit, keyframePatch, parseBoard, printBoard, type Board, type BoardEdit } from '../core/board';
import type { Fallback } from '../core/plan';
import { outputsDirFor, takeOf, takePath } from '../core/state';
import { writeProblem } from './files';
import { BoardGeneration } from './generation';
import { boardView, type ToTask } from './view';

/** Open board editors by file path: what the debug command and the agent tools reach. */
export const sessions = new Map<string, BoardSession>();

/** What a shot leaves out: the active profile's video model (`feature.videoModel()`), the settings' rest. */
export function fallback(videoModel: string): Fallback {
  const st = readSettings();
  return {
    model: videoModel,
    seconds: st.video.seconds,
    resolution: st.video.resolution,
    aspectRatio: st.video.aspectRatio,
  };
}

/**
 * One open board: the text document stays VS Code's (undo, redo, save, dirty state); every change
 * the page asks for is a WorkspaceEdit of the whole text. A board that does not parse is shown as
 * its error and never written.
 */
export class BoardSession implements vscode.Disposable {
  private board: Board | undefined;
  private error: string | undefined;
  private ready = false;
  private markReady!: () => void;
  /** Settles when the page has said it is ready (a board resumed after a reload may need a frame first). */
  private readonly pageReady = new Promise<void>((r) => (this.markReady = r));
  private last: BoardView | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private nextFrame = 1;
  private readonly frames = new Map<number, { resolve: (d: string) => void; reject: (e: Error) => void }>();
  private readonly subs: vscode.Disposable[] = [];
  readonly gen: BoardGeneration;

  constructor(
    private readonly s: Services,
    private readonly feature: VideoFeature,
    private readonly toTask: ToTask,
    readonly doc: vscode.TextDocument,
    private readonly panel: vscode.WebviewPanel,
  ) {
    this.parse();
    this.gen = new BoardGeneration({
      s,
      feature,
      boardPath: doc.uri.fsPath,
      board: () => this.board,
      fallback: () => fallback(feature.videoModel()),
      lastFrame: (file) => this.lastFrame(file),
      changed: () => this.schedule(),
      // A generated keyframe's file goes into the board; a board that had no unsaved change is saved.
      edit: async (e) => {
        const clean = !this.doc.isDirty;
        const ok = await this.edit(e);
        if (ok && clean) await this.doc.save();
        return ok;
      },
    });
    const ext = s.context.extensionUri;
    panel.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(ext, 'dist'), vscode.Uri.file(outputsDirFor(doc.uri.fsPath))],
    };
    panel.webview.html = pageHtml(panel.webview, ext, {
      bundle: 'storyboard',
      title: vscode.l10n.t('Storyboard'),
      module: true,
    });
    this.subs.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => {
        const m = storyboardWebviewMessageSchema.safeParse(raw);
        if (!m.success) {
          s.log.warn(`storyboard: dropped a page message that does not match the protocol`);
          return;
        }
        void this.handle(m.data).catch((e: unknown) => this.notice(e instanceof Error ? e.message : String(e), true));
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document !== doc || e.contentChanges.length === 0) return;
        this.parse();
        if (this.board) this.gen.run?.update(this.board);
        void this.gen.recheck();
      }),
      panel.onDidDispose(() => this.dispose()),
    );
    sessions.set(doc.uri.fsPath, this);
    void this.gen.load().then(() => this.gen.resumePending());
  }

  private parse(): void {
    const r = parseBoard(this.doc.getText());
    this.board = r.ok ? r.board : undefined;
    this.error = r.ok ? undefined : r.error;
  }

  /** What the page was last sent (integration tests). */
  view(): BoardView | undefined {
    return this.last;
  }

  private post(m: StoryboardHostMessage): void {
    void this.panel.webview.postMessage(m);
  }

  notice(text: string, error: boolean): void {
    if (this.ready) this.post({ type: 'board/notice', text, error });
    if (error) this.s.log.info(`storyboard ${this.doc.uri.fsPath}: ${text}`);
  }

  /** Sends the view at most every 100 ms (progress of several tasks arrives in bursts). */
  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.render();
    }, 100);
  }

  private async render(): Promise<void> {
    const view = await boardView(this.board, this.error, this.gen, {
      boardPath: this.doc.uri.fsPath,
      fallback: fallback(this.feature.videoModel()),
      toTask: this.toTask,
      asUri: (u) => this.panel.webview.asWebviewUri(u).toString(),
    });
    this.last = view;
    if (this.ready) this.post({ type: 'board/state', view });
  }

  /** The last frame of a clip beside the board, decoded by the page (its CSP allows no fetch: bytes travel in the message). */
  private async lastFrame(file: string): Promise<string> {
    if (!this.ready) {
      // Resumed after a reload, a chained shot can need a frame before the page has loaded.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(vscode.l10n.t('the board editor is not open'))), 60_000);
      });
      await Promise.race([this.pageReady, late]).finally(() => clearTimeout(timer));
    }
    // The clip beside the board is read by the same rule as the export's reads: a take file that is a
    // link out of the workspace (or into .git/) is not handed to the page.
    const clip = takePath(this.doc.uri.fsPath, file);
    const why = await writeProblem(clip);
    if (why) throw new Error(why);
    const bytes = await fs.readFile(clip);
    const requestId = this.nextFrame++;
    return new Promise((resolve, reject) => {
      this.frames.set(requestId, { resolve, reject });
      this.post({
        type: 'board/clip',
        requestId,
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      });
    });
  }

  private async handle(m: StoryboardWebviewMessage): Promise<void> {
    switch (m.type) {
      case 'webview/ready': {
        this.ready = true;
        this.markReady();
        const strings: Record<string, string> = {};
        for (const k of [...GALLERY_STRINGS, ...STORYBOARD_STRINGS]) strings[k] = vscode.l10n.t(k);
        this.post({ type: 'board/strings', strings });
        await this.render();
        return;
      }
      case 'board/edit':
        await this.edit(m.edit.kind === 'update' ? this.shotPatch(m.edit.id, m.edit.patch) : m.edit);
        return;
      case 'board/generate': {
        const text = await this.gen.generate(m.id);
        this.notice(text, false);
        return;
      }
      case 'board/frame': {
        const f = this.frames.get(m.requestId);
        this.frames.delete(m.requestId);
        if (f && m.dataUrl) f.resolve(m.dataUrl);
        else f?.reject(new Error(m.error ?? vscode.l10n.t('no frame')));
        return;
      }
      case 'board/takeAction':
        return this.takeAction(m.id, m.take, m.action);
      case 'board/stitch':
      case 'board/saveExport':
      case 'board/readTake':
        this.post({ type: 'board/exportReply', requestId: m.requestId, reply: await this.exportStep(m) });
        return;
    }
  }

  /** The chosen take of every shot, in board order, or the first shot that has none saved. */
  chosenClips(): Array<{ id: string; name: string; uri: vscode.Uri }> | string {
    if (!this.board) return this.error ?? vscode.l10n.t('the board does not parse');
    const out: Array<{ id: string; name: string; uri: vscode.Uri }> = [];
    for (const [i, shot] of this.board.shots.entries()) {
      const take = shot.chosenTake ?? 1;
      const rec = takeOf(this.gen.state, shot.id, take);
      if (rec?.state !== 'saved' || !rec.file)
        return vscode.l10n.t('Shot {0} has no saved clip for its chosen take {1}.', i + 1, take);
      out.push({
        id: shot.id,
        name: vscode.l10n.t('Shot {0}, take {1}', i + 1, take),
        uri: vscode.Uri.file(takePath(this.doc.uri.fsPath, rec.file)),
      });
    }
    return out;
  }

  /** An export call from outside the page (the hidden command), parsed by the page's schema. */
  async exportMessage(raw: unknown): Promise<ExportReply> {
    const m = storyboardWebviewMessageSchema.safeParse(raw);
    if (
      m.success &&
      (m.data.type === 'board/stitch' || m.data.type === 'board/saveExport' || m.data.type === 'board/readTake')
    )
      return this.exportStep(m.data);
    return { ok: false, message: vscode.l10n.t('That is not an export call of the board protocol.') };
  }

  /** The export panel's calls (export.ts is loaded on first use): the page names a kind or a shot, never a path. */
  async exportStep(
    m: Extract<StoryboardWebviewMessage, { type: 'board/stitch' | 'board/saveExport' | 'board/readTake' }>,
  ): Promise<ExportReply> {
    const { stitchBoard, saveBoardExport } = await import('./export');
    if (m.type === 'board/saveExport') {
      if (!(m.bytes instanceof Uint8Array) || m.bytes.byteLength > MAX_EXPORT_BYTES)
        return { ok: false, message: vscode.l10n.t('Not saved: the export is not bytes of at most 200 MB.') };
      return saveBoardExport(this.doc.uri, m.kind, m.bytes);
    }
    const clips = this.chosenClips();
    if (typeof clips === 'string') return { ok: false, kind: 'refused', message: clips };
    if (m.type === 'board/stitch') return stitchBoard(this.doc.uri, clips);
    const clip = clips.find((c) => c.id === m.id);
    if (!clip) return { ok: false, message: vscode.l10n.t('Shot "{0}" is not on the board.', m.id) };
    try {
      // A plain Uint8Array view: the host's readFile gives a Node Buffer, which the webview
      // message serialiser does not treat as a typed array (it arrives as {type:'Buffer',data})
      // and the page could not read the take (the board's GIF and re-encode failed in the e2e).
      if (await writeProblem(clip.uri.fsPath))
        return {
          ok: false,
          message: vscode.l10n.t('{0} is outside the board outputs folder, so it is not read.', clip.name),
        };
      const b = await vscode.workspace.fs.readFile(clip.uri);
      return { ok: true, bytes: new Uint8Array(b.buffer, b.byteOffset, b.byteLength) };
    } catch (e) {
      return { ok: false, message: vscode.l10n.t('{0} cannot be read: {1}', clip.name, String(e)) };
    }
  }

  /** A page's shot patch as a board edit: keyframe prompts become keyframes (board.ts `keyframePatch`). */
  private shotPatch(id: string, p: { prompt?: string; firstFrame?: string; lastFrame?: string }): BoardEdit {
    const shot = this.board?.shots.find((s) => s.id === id);
    const patch = {
      ...(p.prompt !== undefined ? { prompt: p.prompt } : {}),
      ...(p.firstFrame !== undefined ? keyframePatch(shot, 'firstFrame', p.firstFrame) : {}),
      ...(p.lastFrame !== undefined ? keyframePatch(shot, 'lastFrame', p.lastFrame) : {}),
    };
    return { kind: 'update', id, patch };
  }

  /** Applies a page edit as a WorkspaceEdit of the whole text (undo and redo are VS Code's). */
  async edit(edit: BoardEdit): Promise<boolean> {
    const r = parseBoard(this.doc.getText());
    if (!r.ok) {
      this.notice(
        vscode.l10n.t('The board does not parse ({0}); fix it in the text editor. Nothing was changed.', r.error),
        true,
      );
      return false;
    }
    if (edit.kind === 'delete' && !(await this.confirmDelete(edit.id))) return false;
    const next = applyEdit(r.board, edit);
    const we = new vscode.WorkspaceEdit();
    we.replace(this.doc.uri, new vscode.Range(0, 0, this.doc.lineCount, 0), printBoard(next));
    return vscode.workspace.applyEdit(we);
  }

  /** A shot with clips asks before it goes, and its clips are deleted only when the user says so. */
  private async confirmDelete(id: string): Promise<boolean> {
    const takes = this.gen.state.shots[id]?.takes.filter((t) => t.file) ?? [];
    if (takes.length === 0) return true;
    const keep = vscode.l10n.t('Delete Shot, Keep Clips');
    const both = vscode.l10n.t('Delete Shot and Clips');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Shot "{0}" has {1} generated clip(s). Delete its clips too?', id, takes.length),
      { modal: true },
      keep,
      both,
    );
    if (answer === undefined) return false;
    if (answer === both) {
      for (const t of takes)
        await vscode.workspace.fs
          .delete(vscode.Uri.file(takePath(this.doc.uri.fsPath, t.file ?? '')), { useTrash: true })
          .then(
            () => undefined,
            () => undefined,
          );
      const { [id]: _gone, ...rest } = this.gen.state.shots;
      this.gen.state = { ...this.gen.state, shots: rest };
      await this.gen.persist();
    }
    return true;
  }

  private async takeAction(id: string, take: number, action: string): Promise<void> {
    const rec = takeOf(this.gen.state, id, take);
    const file = rec?.file ? vscode.Uri.file(takePath(this.doc.uri.fsPath, rec.file)) : undefined;
    const r = this.gen.record(id, take);
    if (action === 'open' && file) await vscode.commands.executeCommand('vscode.open', file, vscode.ViewColumn.Beside);
    else if (action === 'reveal' && file) await vscode.commands.executeCommand('revealInExplorer', file);
    else if (action === 'copyId' && rec?.videoId) await vscode.env.clipboard.writeText(rec.videoId);
    else if (action === 'stop' && r) await this.feature.manager.pause(r.key);
    else if (action === 'resume') {
      if (r) void this.feature.manager.resume(r.key);
      else if (rec?.videoId) {
        // An id recorded elsewhere is followed only on the user's word, and only polled: never created again.
        const { record } = await this.feature.manager.track(rec.videoId, rec.prompt ?? '');
        await this.gen.setTake(id, { ...rec, taskKey: record.key, state: 'running' });
        await this.gen.load();
      }
    }
    this.schedule();
  }

  dispose(): void {
    if (sessions.get(this.doc.uri.fsPath) === this) sessions.delete(this.doc.uri.fsPath);
    for (const f of this.frames.values()) f.reject(new Error(vscode.l10n.t('the board editor was closed')));
    this.frames.clear();
    this.gen.dispose();
    for (const s of this.subs) s.dispose();
    if (this.timer) clearTimeout(this.timer);
  }
}

/** The custom editor: a board session per opened document. */
export function resolveBoardEditor(
  s: Services,
  feature: VideoFeature,
  toTask: ToTask,
  doc: vscode.TextDocument,
  panel: vscode.WebviewPanel,
): void {
  new BoardSession(s, feature, toTask, doc, panel);
}
