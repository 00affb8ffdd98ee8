import * as vscode from 'vscode';
import { costLines } from '../../jobs/core/costs';
import * as path from 'node:path';
import { promises as fs } from 'node:fs';
import type { Services } from '../../../platform/services';
import {
  galleryWebviewMessageSchema,
  type GalleryHostMessage,
  type GalleryImage,
  type GalleryTask,
  type GalleryWebviewMessage,
} from '../../../shared/protocol/gallery';
import { pageHtml } from '../../../platform/webviewPage';
import { failureMeaning } from '../../jobs/core/errorText';
import type { VideoTaskRecord } from '../../jobs/core/record';
import { canResume, stateLabel } from '../../jobs/core/summary';
import type { GalleryActions } from './galleryActions';
import { SHOW_TASKS_COMMAND, type VideoFeature } from '../../base/vscode/feature';
import { relPath } from '../../base/vscode/paths';

/** The gallery's view id (package.json `views`); `<id>.focus` reveals it. */
export const GALLERY_VIEW_ID = 'gatewayStudio.videoGallery';
/** Hidden, in the host tests' builds only: what the gallery was last sent and whether it is ready. */
export const GALLERY_DEBUG_COMMAND = 'gatewayStudio.video.debugGallery';

/**
 * The Media gallery: a webview view beside the chat listing every video task with its player,
 * poster and actions, and the images output folder's images (./galleryImages). Local files reach
 * it only as `asWebviewUri` links under `localResourceRoots` limited to the bundle, the poster
 * cache, the folders videos are saved to and the images folder.
 */
export class VideoGallery implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private queue: GalleryHostMessage[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private last: GalleryTask[] = [];
  private lastImages: GalleryImage[] = [];
  /** The images output folder, once a refresh found it (a root the page may load from). */
  private imageDir: string | undefined;
  /** Times this view's page said ready (a reload says it again). */
  private loads = 0;
  private readonly subs: vscode.Disposable[] = [];
  readonly posterDir: vscode.Uri;
  /** The cards' actions (and the task list they share) load with the first one a user takes. */
  private actions: Promise<GalleryActions> | undefined;

  constructor(
    private readonly s: Services,
    private readonly feature: VideoFeature,
  ) {
    this.posterDir = vscode.Uri.joinPath(s.context.storageUri ?? s.context.globalStorageUri, 'video-posters');
    this.subs.push(
      feature.onDidChange((e) => {
        // Tasks leave the list by Remove or by the manager's pruning: their posters go with them.
        if (e.removed) void this.dropPoster(e.record.key);
        this.schedule();
      }),
    );
  }

  async resolveWebviewView(view: vscode.WebviewView): Promise<void> {
    // The images folder is a root before the page loads: a change of roots reloads the page, which
    // the first refresh did every time it found the folder.
    this.imageDir = await this.imagesFolder();
    this.view = view;
    this.ready = false;
    this.loads = 0;
    const ext = this.s.context.extensionUri;
    view.webview.options = this.options();
    view.webview.html = pageHtml(view.webview, ext, {
      bundle: 'gallery',
      title: vscode.l10n.t('Gateway Studio Media'),
    });
    const saved = this.s.media.images?.().then((lib) => lib.onDidSave(() => this.schedule()));
    this.subs.push(
      view.webview.onDidReceiveMessage((raw: unknown) => {
        const m = galleryWebviewMessageSchema.safeParse(raw);
        if (!m.success) {
          this.s.log.warn(`gallery: dropped an invalid message (${m.error.issues[0]?.message ?? 'unknown shape'})`);
          return;
        }
        void this.receive(m.data).catch((e: unknown) =>
          this.s.log.error(`gallery: ${e instanceof Error ? e.message : String(e)}`),
        );
      }),
      view.onDidChangeVisibility(() => view.visible && this.schedule()),
      view.onDidDispose(() => {
        if (this.view === view) this.view = undefined;
        void saved?.then((d) => d.dispose());
      }),
    );
  }

  private async imagesFolder(): Promise<string | undefined> {
    const lib = this.s.media.images;
    return lib
      ? lib()
          .then((l) => l.folder())
          .catch(() => undefined)
      : undefined;
  }

  private options(): vscode.WebviewOptions {
    const roots = [vscode.Uri.joinPath(this.s.context.extensionUri, 'dist'), ...this.mediaRoots()];
    return { enableScripts: true, enableCommandUris: false, localResourceRoots: roots };
  }

  /** The poster cache and every folder a video is (or will be) saved to: what a page showing them may load. */
  mediaRoots(): vscode.Uri[] {
    const roots = new Map<string, vscode.Uri>();
    const add = (u: vscode.Uri) => roots.set(u.toString(), u);
    add(this.posterDir);
    if (this.imageDir) add(vscode.Uri.file(this.imageDir));
    const out = this.feature.outputDir();
    if (out) add(vscode.Uri.file(out));
    for (const r of this.feature.manager.list()) {
      const dir = r.file ? path.dirname(r.file) : r.saveDir;
      if (dir) add(vscode.Uri.file(dir));
    }
    return [...roots.values()];
  }

  private async receive(m: GalleryWebviewMessage): Promise<void> {
    switch (m.type) {
      case 'webview/ready': {
        this.loads++;
        // The strings load when the view is first shown, not at activation; they go first.
        const { GALLERY_STRINGS } = await import('../../../shared/galleryStrings');
        this.ready = true;
        void this.view?.webview.postMessage({
          type: 'gallery/strings',
          strings: Object.fromEntries(GALLERY_STRINGS.map((k) => [k, vscode.l10n.t(k)])),
        } satisfies GalleryHostMessage);
        await this.refresh();
        for (const q of this.queue.splice(0)) void this.view?.webview.postMessage(q);
        return;
      }
      case 'gallery/poster':
        await this.savePoster(m.key, m.dataUrl);
        this.schedule();
        return;
      case 'gallery/imageAction':
        return (await import('./galleryImages')).imageAction(this.s, this, m.name, m.action);
      default:
        this.actions ??= import('./galleryActions').then((a) => new a.GalleryActions(this.s, this.feature, this));
        await (await this.actions).handle(m);
    }
  }

  post(msg: GalleryHostMessage): void {
    if (!this.view || !this.ready) {
      if (msg.type !== 'gallery/state') this.queue.push(msg);
      return;
    }
    void this.view.webview.postMessage(msg);
  }

  /** Reveals the gallery view (the status-bar item and Show Video Tasks). */
  async show(): Promise<void> {
    await vscode.commands.executeCommand(`${GALLERY_VIEW_ID}.focus`);
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, 100);
  }

  async refresh(): Promise<void> {
    const view = this.view;
    if (!view) return;
    const asUri = (u: vscode.Uri) => view.webview.asWebviewUri(u).toString();
    if (this.s.media.images) {
      const got = await (await import('./galleryImages')).galleryImages(this.s, asUri);
      this.imageDir = got.dir;
      this.lastImages = got.images;
    }
    // New output folders (a changed setting, a first task) join the roots before their links go out.
    const opts = this.options();
    const before = (view.webview.options.localResourceRoots ?? []).map(String).join('\n');
    if (before !== (opts.localResourceRoots ?? []).map(String).join('\n')) view.webview.options = opts;
    this.last = await Promise.all(this.feature.manager.list().map((r) => this.toTask(r, asUri)));
    const images = this.lastImages;
    if (this.ready)
      void view.webview.postMessage({ type: 'gallery/state', tasks: this.last, images } satisfies GalleryHostMessage);
  }

  /** A task as the gallery (and the chat's tool card) shows it; local files through `asUri`. */
  async toTask(r: VideoTaskRecord, asUri: (u: vscode.Uri) => string): Promise<GalleryTask> {
    const exists = r.file
      ? await fs.stat(r.file).then(
          (st) => st.isFile(),
          () => false,
        )
      : false;
    const poster = vscode.Uri.joinPath(this.posterDir, `${r.key}.png`);
    const posterStat = exists ? await fs.stat(poster.fsPath).catch(() => undefined) : undefined;
    const failure = failureMeaning(r);
    const { cost, flag } = costLines(this.feature.costOf(r.key));
    return {
      key: r.key,
      ...(r.videoId ? { videoId: r.videoId } : {}),
      prompt: r.request.prompt,
      model: r.request.model,
      ...(r.request.seconds !== undefined ? { seconds: r.request.seconds } : {}),
      ...(r.request.aspect_ratio ? { aspectRatio: r.request.aspect_ratio } : {}),
      ...(r.request.resolution ? { resolution: r.request.resolution } : {}),
      images: r.request.images,
      state: r.state,
      stateLabel: stateLabel(r),
      ...(r.progress !== undefined ? { progress: r.progress } : {}),
      ...(failure ? { failure } : {}),
      ...(cost ? { cost } : {}),
      ...(flag ? { costFlag: flag } : {}),
      createdAt: r.createdAt,
      ...(r.finishedAt ? { finishedAt: r.finishedAt } : {}),
      ...(r.file ? { file: relPath(r.file) } : {}),
      ...(exists && r.file ? { src: asUri(vscode.Uri.file(r.file)) } : {}),
      // The modification time busts the webview's cache when a poster is captured again.
      ...(posterStat ? { poster: `${asUri(poster)}?v=${Math.round(posterStat.mtimeMs)}` } : {}),
      running: this.feature.manager.isRunning(r.key),
      canResume: canResume(r),
    };
  }

  private async savePoster(key: string, dataUrl: string): Promise<void> {
    if (!this.feature.manager.get(key)) return;
    const b64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
    await vscode.workspace.fs.createDirectory(this.posterDir);
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(this.posterDir, `${key}.png`), Buffer.from(b64, 'base64'));
  }

  /** Forgets a task's poster (its file was deleted or the task removed). */
  async dropPoster(key: string): Promise<void> {
    await vscode.workspace.fs
      .delete(vscode.Uri.joinPath(this.posterDir, `${key}.png`))
      .then(undefined, () => undefined);
  }

  /** For tests: the tasks last sent, whether the page said ready, and how often this view's page loaded. */
  debug(): { ready: boolean; visible: boolean; loads: number; tasks: GalleryTask[]; images: GalleryImage[] } {
    return {
      ready: this.ready,
      visible: this.view?.visible ?? false,
      loads: this.loads,
      tasks: this.last,
      images: this.lastImages,
    };
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.subs) d.dispose();
  }
}

export function registerVideoGallery(s: Services, feature: VideoFeature): VideoGallery {
  const gallery = new VideoGallery(s, feature);
  s.context.subscriptions.push(
    gallery,
    vscode.window.registerWebviewViewProvider(GALLERY_VIEW_ID, gallery, {
      webviewOptions: { retainContextWhenHidden: true },
    }),
    vscode.commands.registerCommand(SHOW_TASKS_COMMAND, () => gallery.show()),
  );
  // A host tests' seam (src/testCommands.d.ts): the product build drops it.
  if (__GWS_TEST_COMMANDS__)
    s.context.subscriptions.push(vscode.commands.registerCommand(GALLERY_DEBUG_COMMAND, () => gallery.debug()));
  return gallery;
}
