import * as vscode from 'vscode';
import * as path from 'node:path';
import { placeProblem } from '../../../files/insideWorkspace';
import { KNOWN_VIDEO_MODELS } from '../../../api/video/videoRules';
import type { Services } from '../../../platform/services';
import type { GalleryForm, GalleryHostMessage, GalleryWebviewMessage } from '../../../shared/protocol/gallery';
import { confirmationText, rulesResult } from '../../tools/core/agentText';
import { failureText } from '../../jobs/core/errorText';
import { fileStem, type VideoTaskRecord } from '../../jobs/core/record';
import type { VideoFeature } from '../../base/vscode/feature';
import { relPath } from '../../base/vscode/paths';
import { VideoSpend } from '../../base/vscode/spend';
import { openVideo, revealVideo, runAction } from '../../base/vscode/taskList';

/** What the actions need from the gallery view. */
export interface GalleryPort {
  post(msg: GalleryHostMessage): void;
  dropPoster(key: string): Promise<void>;
  refresh(): Promise<void>;
}

/**
 * The gallery's actions. New tasks (re-run, the remix form, "use this frame") are confirmed as
 * billed in a modal and then started through the feature's one `start`, like every other task.
 */
export class GalleryActions {
  constructor(
    private readonly s: Services,
    private readonly feature: VideoFeature,
    private readonly port: GalleryPort,
  ) {}

  async handle(
    m: Exclude<GalleryWebviewMessage, { type: 'webview/ready' | 'gallery/poster' | 'gallery/imageAction' }>,
  ): Promise<void> {
    if (m.type === 'gallery/generate') return this.generate(m.form);
    const r = this.feature.manager.get(m.key);
    if (!r) return;
    if (m.type === 'gallery/frame') return this.useFrame(r, m.time, m.dataUrl);
    switch (m.action) {
      case 'open':
        if (r.file) await openVideo(r.file);
        return;
      case 'reveal':
        if (r.file) await revealVideo(r.file);
        return;
      case 'openExternal':
        if (r.file) await vscode.env.openExternal(vscode.Uri.file(r.file));
        return;
      case 'copyId':
        await vscode.env.clipboard.writeText(r.videoId ?? r.key);
        this.port.post({ type: 'gallery/notice', text: vscode.l10n.t('Copied {0}', r.videoId ?? r.key), error: false });
        return;
      case 'rerun':
        return this.generate(formOf(r));
      case 'remix':
        this.port.post({ type: 'gallery/form', form: formOf(r) });
        return;
      case 'deleteFile':
        return this.deleteFile(r);
      case 'remove':
        await this.feature.manager.remove(r.key);
        await this.port.dropPoster(r.key);
        return;
      case 'resume':
      case 'stop':
        await runAction(this.s, this.feature.manager, r.key, m.action);
        return;
    }
  }

  /** Checks, confirms as billed, starts. Problems come back to the form as a notice. */
  private async generate(form: GalleryForm): Promise<void> {
    const plan = await this.feature.plan({
      prompt: form.prompt,
      model: form.model,
      ...(form.seconds !== undefined ? { seconds: form.seconds } : {}),
      ...(form.aspectRatio ? { aspectRatio: form.aspectRatio } : {}),
      ...(form.resolution ? { resolution: form.resolution } : {}),
      images: form.images,
    });
    if (!plan.ok) {
      this.port.post({ type: 'gallery/notice', text: rulesResult(plan.issues), error: true });
      return;
    }
    // Re-run and remix: the price is in this one modal, so a price above the limit asks only here.
    const quote = await this.feature.quote(plan.request);
    const c = confirmationText(plan.request, plan.labels, VideoSpend.priceLine(quote));
    const go = vscode.l10n.t('Generate (billed)');
    const title =
      quote.known && quote.above !== undefined
        ? vscode.l10n.t(
            'This video is estimated at {0}, above your limit of {1}. Submit it?',
            quote.amount,
            quote.above,
          )
        : c.title;
    const pick = await vscode.window.showWarningMessage(title, { modal: true, detail: c.message }, go);
    if (pick !== go) return;
    try {
      const record = await this.feature.start(plan.request, plan.labels, { priceConfirmed: true });
      this.port.post({
        type: 'gallery/notice',
        text: vscode.l10n.t('Started a new video task: {0}', record.request.prompt),
        error: false,
        closeForm: true,
      });
    } catch (e) {
      this.port.post({ type: 'gallery/notice', text: failureText(e), error: true });
    }
  }

  /** Saves the frame as a PNG next to the videos, then opens the form with it as the reference. */
  private async useFrame(r: VideoTaskRecord, time: number, dataUrl: string): Promise<void> {
    const dir = r.file ? path.dirname(r.file) : this.feature.outputDir();
    if (!dir || !dataUrl.startsWith('data:image/png;base64,')) return;
    const stem = fileStem(r.request.prompt, r.videoId ?? r.key);
    const framesDir = vscode.Uri.joinPath(vscode.Uri.file(dir), 'frames');
    if (await this.refused(framesDir)) return;
    await vscode.workspace.fs.createDirectory(framesDir);
    let file = vscode.Uri.joinPath(framesDir, `${stem}-${time.toFixed(2).replace('.', '_')}s.png`);
    for (let i = 2; await exists(file); i++)
      file = vscode.Uri.joinPath(framesDir, `${stem}-${time.toFixed(2).replace('.', '_')}s-${i}.png`);
    if (await this.refused(file)) return;
    await vscode.workspace.fs.writeFile(file, Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
    this.s.log.info(`gallery: frame at ${time.toFixed(2)} s of ${r.videoId ?? r.key} saved to ${file.fsPath}`);
    // One reference image: image-to-video, which both known models accept.
    this.port.post({ type: 'gallery/form', form: { ...formOf(r), images: [relPath(file.fsPath)] } });
  }

  /**
   * The shared rule (api/insideWorkspace.ts): a `frames` folder or frame name inside the workspace
   * that links out of it, or into `.git/` or `.vscode/` (dangling links too), is not written. An
   * output folder the user set outside the workspace is theirs.
   */
  private async refused(target: vscode.Uri): Promise<boolean> {
    const roots = (vscode.workspace.workspaceFolders ?? [])
      .filter((f) => f.uri.scheme === 'file')
      .map((f) => f.uri.fsPath);
    const why = await placeProblem(target.fsPath, roots, { userOutside: true }).catch(() => ({
      kind: 'outside' as const,
      real: target.fsPath,
    }));
    if (!why) return false;
    const text =
      why.kind === 'outside'
        ? vscode.l10n.t('{0} leads out of the workspace; the frame was not saved.', relPath(target.fsPath))
        : vscode.l10n.t('{0} leads into {1}/; the frame was not saved.', relPath(target.fsPath), why.dir);
    this.s.log.warn(`gallery: ${text}`);
    this.port.post({ type: 'gallery/notice', text, error: true });
    return true;
  }

  private async deleteFile(r: VideoTaskRecord): Promise<void> {
    if (!r.file) return;
    const del = vscode.l10n.t('Delete');
    const pick = await vscode.window.showWarningMessage(
      vscode.l10n.t('Delete {0}?', path.basename(r.file)),
      {
        modal: true,
        detail: vscode.l10n.t(
          'The video file and its .json sidecar go to the trash where the system has one. The task stays in the list.',
        ),
      },
      del,
    );
    if (pick !== del) return;
    for (const f of [r.file, r.sidecar ?? r.file.replace(/\.mp4$/, '.json')]) {
      await vscode.workspace.fs
        .delete(vscode.Uri.file(f), { useTrash: true })
        .then(undefined, () => vscode.workspace.fs.delete(vscode.Uri.file(f)).then(undefined, () => undefined));
    }
    await this.port.dropPoster(r.key);
    await this.port.refresh();
    this.port.post({ type: 'gallery/notice', text: vscode.l10n.t('Deleted {0}', path.basename(r.file)), error: false });
  }
}

function formOf(r: VideoTaskRecord): GalleryForm {
  return {
    model: r.request.model,
    prompt: r.request.prompt,
    ...(r.request.seconds !== undefined ? { seconds: r.request.seconds } : {}),
    ...(r.request.aspect_ratio ? { aspectRatio: r.request.aspect_ratio } : {}),
    ...(r.request.resolution ? { resolution: r.request.resolution } : {}),
    images: r.request.images,
    models: [...new Set([...KNOWN_VIDEO_MODELS, r.request.model].filter(Boolean))],
    from: r.key,
  };
}

function exists(u: vscode.Uri): Promise<boolean> {
  return Promise.resolve(vscode.workspace.fs.stat(u)).then(
    () => true,
    () => false,
  );
}
