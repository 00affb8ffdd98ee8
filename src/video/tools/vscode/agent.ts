import * as vscode from 'vscode';
import * as path from 'node:path';
import { GatewayError } from '../../../api/transport/errors';
import { validateVideoRequest, type VideoCreateRequest, type VideoRuleIssue } from '../../../api/video/videoRules';
import { readSettings } from '../../../platform/settings';
import { fileStem, type VideoTaskRecord } from '../../jobs/core/record';
import { generateVideoInputSchema, parseToolInput, videoStatusInputSchema } from '../core/toolInput';
import type { StartOptions, VideoFeature, VideoPlan } from '../../base/vscode/feature';
import { SpendDeclined } from '../../base/vscode/spend';
import { imageLabel, imageToDataUrl } from '../../base/vscode/images';
import { relPath } from '../../base/vscode/paths';

/** How long a tool waits for the creation response before answering with the local key. */
const CREATE_WAIT_MS = 60_000;

/**
 * The work behind the video tools, shared by the `vscode.lm` tools and the chat panel's tools so
 * both check, start and report the same way: input -> request (settings fill the gaps, workspace
 * images become data URLs) -> the feature's one `start` -> a text answer for the model.
 */
export class VideoAgent {
  constructor(private readonly feature: VideoFeature) {}

  /** Checks a generate input without side effects (prepare may run without invoke). */
  async plan(input: unknown): Promise<VideoPlan> {
    const parsed = parseToolInput(generateVideoInputSchema, input);
    if (!parsed.ok) return parsed;
    const i = parsed.value;
    const settings = readSettings().video;
    const request: VideoCreateRequest = {
      model: i.model ?? this.feature.videoModel(),
      prompt: i.prompt,
      seconds: i.seconds ?? settings.seconds,
      aspect_ratio: i.aspectRatio ?? settings.aspectRatio,
      resolution: i.resolution ?? settings.resolution,
    };
    const issues: VideoRuleIssue[] = [];
    const urls: string[] = [];
    const labels: string[] = [];
    for (const ref of i.images ?? []) {
      const r = ref.trim();
      if (/^[a-z][a-z0-9+.-]*:/i.test(r) && !/^[a-z]:[\\/]/i.test(r)) {
        // URLs go as they are; validation refuses anything but HTTPS and complete data URLs.
        urls.push(r);
        labels.push(r.startsWith('data:') ? '(embedded image)' : r);
        continue;
      }
      try {
        const uri = workspaceFile(r);
        urls.push(await imageToDataUrl(uri));
        labels.push(imageLabel(uri));
      } catch (e) {
        issues.push({
          rule: 'reference-image-file',
          field: 'images',
          message: `${r}: ${e instanceof Error ? e.message : String(e)} (rule: reference-image-file)`,
        });
      }
    }
    if (urls.length) request.image_urls = urls;
    const v = validateVideoRequest(request);
    issues.push(...v.errors);
    if (issues.length) return { ok: false, issues };
    return { ok: true, request, labels };
  }

  /**
   * Starts the planned task through the feature and waits for the creation response (a moment),
   * so the answer carries the gateway's id and status. Returns the text for the model.
   */
  async start(
    plan: Extract<VideoPlan, { ok: true }>,
    signal?: AbortSignal,
    o?: StartOptions,
  ): Promise<{ text: string; record?: VideoTaskRecord }> {
    // The texts load with the first call: they are not needed at activation.
    const { rulesResult, startedText } = await import('../core/agentText');
    let record: VideoTaskRecord;
    try {
      record = await this.feature.start(plan.request, plan.labels, o);
    } catch (e) {
      if (e instanceof GatewayError && e.kind === 'validation') {
        return { text: rulesResult(validateVideoRequest(plan.request).errors) };
      }
      if (e instanceof SpendDeclined)
        return {
          text: `The video task was not started: the user declined its estimated price (${e.priceLine}), which is above their gatewayStudio.spend.confirmAbove limit. Nothing was sent or billed. Do not call the tool again unless the user asks.`,
        };
      throw e;
    }
    const done = await this.untilCreated(record.key, signal);
    const landing = done.videoId ? this.landing(done) : undefined;
    return { text: startedText(done, landing, relPath), record: done };
  }

  /** The status tool's answer: one task by id (or local key), or the latest ones. */
  async status(input: unknown): Promise<string> {
    const { rulesResult, taskStatusText } = await import('../core/agentText');
    const parsed = parseToolInput(videoStatusInputSchema, input);
    if (!parsed.ok) return rulesResult(parsed.issues);
    const { id, limit } = parsed.value;
    const all = this.feature.manager.list();
    if (id && id.trim()) {
      const want = id.trim();
      const r = all.find((t) => t.videoId === want || t.key === want);
      if (!r)
        return `No video task with id "${want}" in this workspace's list. Ids come from the generate tool's answer; the user can follow an outside id with "Gateway Studio: Check Video Task".`;
      return taskStatusText(r, relPath);
    }
    if (all.length === 0) return 'There are no video tasks in this workspace yet.';
    const n = Math.min(20, Math.max(1, Math.floor(limit ?? 5)));
    return [
      `The latest ${Math.min(n, all.length)} of ${all.length} video task(s), newest first:`,
      ...all.slice(0, n).map((r) => taskStatusText(r, relPath)),
    ].join('\n');
  }

  private landing(r: VideoTaskRecord): string | undefined {
    const dir = r.saveDir ?? this.feature.outputDir();
    if (r.file) return r.file;
    return dir && r.videoId ? path.join(dir, `${fileStem(r.request.prompt, r.videoId)}.mp4`) : undefined;
  }

  private untilCreated(key: string, signal?: AbortSignal): Promise<VideoTaskRecord> {
    const now = this.feature.manager.get(key);
    if (!now || now.state !== 'creating') return Promise.resolve(now ?? ({} as VideoTaskRecord));
    return new Promise((resolve) => {
      const finish = () => {
        sub.dispose();
        clearTimeout(timer);
        signal?.removeEventListener('abort', finish);
        resolve(this.feature.manager.get(key) ?? now);
      };
      const sub = this.feature.onDidChange((e) => {
        if (e.record.key === key && (e.removed || e.record.state !== 'creating')) finish();
      });
      const timer = setTimeout(finish, CREATE_WAIT_MS);
      signal?.addEventListener('abort', finish, { once: true });
    });
  }
}

/** A workspace path of the first folder (absolute paths must lie inside a workspace folder). */
function workspaceFile(p: string): vscode.Uri {
  if (path.isAbsolute(p)) {
    const uri = vscode.Uri.file(p);
    if (!vscode.workspace.getWorkspaceFolder(uri)) throw new Error('is outside the workspace folders');
    return uri;
  }
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  if (!folder) throw new Error('is a relative path but no folder is open');
  if (path.normalize(p).split(/[\\/]/).includes('..')) throw new Error('leaves the workspace folder');
  return vscode.Uri.joinPath(folder.uri, p);
}
