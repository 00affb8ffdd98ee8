import * as vscode from 'vscode';
import * as path from 'node:path';
import { GatewayError } from '../../api/errors';
import { VideoClient } from '../../api/video';
import type { VideoCreateRequest } from '../../api/videoRules';
import { assertVideoId } from '../../api/videoStatus';
import { getGatewayClient, showGatewayError } from '../../platform/gateway';
import type { Services } from '../../platform/services';
import { readSettings } from '../../platform/settings';
import type { VideoApi, VideoRunEnd } from '../core/job';
import { VideoJobManager } from '../core/manager';
import type { VideoTaskRecord } from '../core/record';
import { canResume, formatElapsed, shortPrompt, stateLabel, type StatusBarModel } from '../core/summary';
import { imageLabel, imageToDataUrl, isImageUri } from './images';
import { SHOW_TASKS_COMMAND, VideoStatusBar } from './statusBar';
import { WorkspaceTaskStore } from './store';
import { runVideoWizard } from './wizard';

/** Command ids of the video feature. */
export const VIDEO_COMMANDS = {
  generate: 'gatewayStudio.video.generate',
  generateFromImages: 'gatewayStudio.video.generateFromImages',
  checkTask: 'gatewayStudio.video.checkTask',
  showTasks: SHOW_TASKS_COMMAND,
  /** Hidden: `{ tasks, statusBar }` for integration tests. */
  debugState: 'gatewayStudio.video.debugState',
  /** Hidden: `(key, action)` runs a task-list action without the quick pick (integration tests). */
  taskAction: 'gatewayStudio.video.taskAction',
} as const;

/** What the debug-state command returns. */
export interface VideoDebugState {
  tasks: VideoTaskRecord[];
  running: string[];
  statusBar: StatusBarModel;
}

/** A request given to the Generate Video command directly (automation, tests): skips the quick input. */
export interface GenerateArgs extends Partial<VideoCreateRequest> {
  prompt: string;
  /** Image files (absolute or workspace-relative paths), sent as base64 data URLs. */
  imageFiles?: string[];
}

type TaskAction = 'open' | 'details' | 'copyId' | 'resume' | 'stop' | 'remove';

/** The video feature: commands, the status-bar item, and resumption of unfinished tasks. */
export function registerVideo(s: Services): VideoJobManager {
  const videoClient = async () => new VideoClient((await getGatewayClient(s, 'video')).http);
  // Built per call so a new key or base URL applies to the next request of a running task.
  const api: VideoApi = {
    create: async (req, signal) => (await videoClient()).create(req, signal),
    poll: async (id, o) => (await videoClient()).poll(id, o),
    download: async (src, dest, o) => (await videoClient()).download(src, dest, o),
  };
  let chosenFolder: string | undefined;
  const destination = async (): Promise<string | undefined> => {
    const out = readSettings().video.outputFolder.trim() || 'videos';
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
    // A folder outside the workspace is the user's choice only: a repository's own settings
    // (workspace or folder level) may not send downloads elsewhere on the machine.
    const fromRepo = vscode.workspace.getConfiguration('gatewayStudio').inspect<string>('video.outputFolder');
    const repoValue = fromRepo?.workspaceFolderValue ?? fromRepo?.workspaceValue;
    const escapes = (p: string) => path.isAbsolute(p) || path.normalize(p).split(path.sep).includes('..');
    if (repoValue !== undefined && escapes(repoValue.trim())) {
      throw new GatewayError(
        'config',
        vscode.l10n.t(
          'The workspace setting gatewayStudio.video.outputFolder ("{0}") points outside the workspace. Use a workspace-relative folder there, or set an outside folder in your user settings.',
          repoValue,
        ),
        { field: 'gatewayStudio.video.outputFolder' },
      );
    }
    if (path.isAbsolute(out)) return out;
    if (folder) return path.join(folder.uri.fsPath, out);
    if (chosenFolder) return chosenFolder;
    const picked = await vscode.window.showOpenDialog({
      canSelectFiles: false,
      canSelectFolders: true,
      canSelectMany: false,
      openLabel: vscode.l10n.t('Save Videos Here'),
      title: vscode.l10n.t('No folder is open: where should Gateway Studio save the video?'),
    });
    chosenFolder = picked?.[0]?.fsPath;
    return chosenFolder;
  };

  // Reads the manager lazily: the item is built first so the manager's events can reach it.
  const bar = new VideoStatusBar(() => manager.list());
  const manager = new VideoJobManager(
    {
      api,
      store: new WorkspaceTaskStore(s.context.workspaceState),
      pollIntervalMs: () => readSettings().video.pollIntervalSeconds * 1000,
      pollLimit: () => readSettings().video.pollLimit,
      // The watchdog's timeout of every download: a .part silent for longer is no live download.
      idleTimeoutMs: () => readSettings().network.streamIdleTimeoutSeconds * 1000,
      destination,
    },
    {
      onChange: (r, removed) => {
        s.log.debug(
          `video task ${r.videoId ?? r.key}: ${removed ? 'removed' : `${r.state}${r.progress !== undefined ? ` ${r.progress}%` : ''}`}`,
        );
        bar.refresh();
      },
      onEnd: (r, end) => notifyEnd(s, manager, r, end),
    },
  );
  s.context.subscriptions.push(bar, { dispose: () => manager.dispose() });

  const submit = async (request: VideoCreateRequest, imageLabels: string[]): Promise<string | undefined> => {
    try {
      await videoClient(); // a missing base URL is reported before a task is recorded
      const { record, warnings } = await manager.submit({ request, imageLabels });
      if (warnings.length) void vscode.window.showWarningMessage(warnings.join(' '));
      s.log.info(`video task started: model ${request.model}, ${imageLabels.length} reference image(s)`);
      return record.key;
    } catch (err) {
      showGatewayError(s, err);
      return undefined;
    }
  };

  const generate = async (args?: GenerateArgs, preselected: vscode.Uri[] = []): Promise<string | undefined> => {
    const settings = readSettings();
    if (args && typeof args.prompt === 'string') {
      const files = (args.imageFiles ?? []).map((f) => (path.isAbsolute(f) ? vscode.Uri.file(f) : workspaceUri(f)));
      try {
        const dataUrls = await Promise.all(files.map((u) => imageToDataUrl(u)));
        const urls = [...(args.image_urls ?? []), ...dataUrls];
        const request: VideoCreateRequest = {
          model: args.model ?? settings.videoModel,
          prompt: args.prompt,
          seconds: args.seconds ?? settings.video.seconds,
          aspect_ratio: args.aspect_ratio ?? settings.video.aspectRatio,
          resolution: args.resolution ?? settings.video.resolution,
        };
        if (urls.length) request.image_urls = urls;
        return await submit(request, [...(args.image_urls ?? []), ...files.map(imageLabel)]);
      } catch (err) {
        showGatewayError(s, err);
        return undefined;
      }
    }
    let result;
    try {
      result = await runVideoWizard(settings, async () => (await videoClient()).listVideoModels(), preselected);
    } catch (err) {
      showGatewayError(s, err);
      return undefined;
    }
    if (!result) return undefined;
    return submit(result.request, result.imageLabels);
  };

  s.context.subscriptions.push(
    vscode.commands.registerCommand(VIDEO_COMMANDS.generate, (args?: GenerateArgs) =>
      generate(isGenerateArgs(args) ? args : undefined),
    ),
    vscode.commands.registerCommand(
      VIDEO_COMMANDS.generateFromImages,
      (clicked?: vscode.Uri, selected?: vscode.Uri[]) => {
        const uris = (selected && selected.length ? selected : clicked ? [clicked] : []).filter(
          (u) => u instanceof vscode.Uri && isImageUri(u),
        );
        if (uris.length === 0) {
          void vscode.window.showWarningMessage(
            vscode.l10n.t('Select one or more PNG, JPEG, WebP, GIF or BMP files in the explorer first.'),
          );
          return undefined;
        }
        return generate(undefined, uris);
      },
    ),
    vscode.commands.registerCommand(VIDEO_COMMANDS.checkTask, async (pasted?: string) => {
      let id = typeof pasted === 'string' ? pasted : undefined;
      if (id === undefined) {
        id = await vscode.window.showInputBox({
          title: vscode.l10n.t('Gateway Studio: Check Video Task'),
          prompt: vscode.l10n.t(
            'Paste the video id from the creation response (kept after a timeout). It is checked, and downloaded when completed; it is never submitted again.',
          ),
          placeHolder: 'video_svc_v1_…',
          ignoreFocusOut: true,
          validateInput: (v) => {
            if (v.trim() === '') return undefined;
            try {
              assertVideoId(v);
              return undefined;
            } catch (e) {
              return e instanceof Error ? e.message : String(e);
            }
          },
        });
        if (!id?.trim()) return undefined;
      }
      try {
        await videoClient();
        const { record } = await manager.track(id);
        return record.key;
      } catch (err) {
        showGatewayError(s, err);
        return undefined;
      }
    }),
    vscode.commands.registerCommand(VIDEO_COMMANDS.showTasks, () => showTaskList(s, manager)),
    vscode.commands.registerCommand(VIDEO_COMMANDS.debugState, (): VideoDebugState => ({
      tasks: manager.list(),
      running: manager
        .list()
        .filter((r) => manager.isRunning(r.key))
        .map((r) => r.key),
      statusBar: bar.model,
    })),
    vscode.commands.registerCommand(VIDEO_COMMANDS.taskAction, (key: string, action: TaskAction) =>
      runAction(s, manager, key, action),
    ),
  );

  // Tasks that were running when the window closed carry on (never re-created).
  const resumed = manager.resumeUnfinished();
  if (resumed.length) s.log.info(`resuming ${resumed.length} unfinished video task(s)`);
  void manager.startupCleanup.then((removed) => {
    if (removed.length)
      s.log.info(`removed ${removed.length} leftover partial video download(s): ${removed.join(', ')}`);
  });
  bar.refresh();
  return manager;
}

function isGenerateArgs(v: unknown): v is GenerateArgs {
  return typeof v === 'object' && v !== null && typeof (v as { prompt?: unknown }).prompt === 'string';
}

function workspaceUri(rel: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error(vscode.l10n.t('{0} is a relative path but no folder is open.', rel));
  return vscode.Uri.joinPath(folder.uri, rel);
}

async function openVideo(file: string): Promise<void> {
  // `vscode.open` on an .mp4 opens VS Code's media preview.
  await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(file));
}

async function revealVideo(file: string): Promise<void> {
  const uri = vscode.Uri.file(file);
  if (vscode.workspace.getWorkspaceFolder(uri)) await vscode.commands.executeCommand('revealInExplorer', uri);
  else await vscode.commands.executeCommand('revealFileInOS', uri);
}

/** Notifications at the end of a run; never awaited, so a run never waits for the user. */
function notifyEnd(s: Services, manager: VideoJobManager, r: VideoTaskRecord, end: VideoRunEnd): void {
  const name = shortPrompt(r);
  switch (end) {
    case 'saved': {
      if (!r.file) return;
      s.log.info(`video saved: ${r.file} (${r.bytes ?? 0} bytes)`);
      const open = vscode.l10n.t('Open');
      const reveal = vscode.l10n.t('Reveal in Explorer');
      void vscode.window
        .showInformationMessage(vscode.l10n.t('Video saved: {0}', path.basename(r.file)), open, reveal)
        .then((pick) => {
          if (pick === open) return openVideo(r.file!);
          if (pick === reveal) return revealVideo(r.file!);
          return undefined;
        });
      return;
    }
    case 'timed_out': {
      const resume = vscode.l10n.t('Resume');
      const copy = vscode.l10n.t('Copy Id');
      void vscode.window
        .showInformationMessage(
          vscode.l10n.t(
            '"{0}" is still running on the gateway after {1} checks. It was not submitted again; its id {2} is kept, so check later with Resume or "Check Video Task".',
            name,
            r.polls,
            r.videoId ?? '',
          ),
          resume,
          copy,
        )
        .then((pick) => {
          if (pick === resume) return runAction(s, manager, r.key, 'resume');
          if (pick === copy && r.videoId) return vscode.env.clipboard.writeText(r.videoId);
          return undefined;
        });
      return;
    }
    case 'failed':
    case 'error': {
      const e = r.error;
      s.log.error(`video task ${r.videoId ?? r.key} ${end}: ${e?.title ?? ''} ${e?.detail ?? ''}`);
      const buttons: string[] = [];
      const resume = vscode.l10n.t('Resume');
      const setKey = vscode.l10n.t('Set API Key');
      const log = vscode.l10n.t('Show Log');
      if (end === 'error' && canResume(r) && e?.kind !== 'not_found') buttons.push(resume);
      if (e?.kind === 'auth') buttons.push(setKey);
      buttons.push(log);
      void vscode.window
        .showErrorMessage(`${e?.title ?? stateLabel(r)} — ${name}. ${e?.detail ?? ''}`, ...buttons)
        .then((pick) => {
          if (pick === resume) return runAction(s, manager, r.key, 'resume');
          if (pick === setKey) return vscode.commands.executeCommand('gatewayStudio.setApiKey');
          if (pick === log) s.log.show();
          return undefined;
        });
      return;
    }
    case 'paused':
      return;
  }
}

async function runAction(s: Services, manager: VideoJobManager, key: string, action: TaskAction): Promise<void> {
  const r = manager.get(key);
  if (!r) return;
  switch (action) {
    case 'open':
      if (r.file) await openVideo(r.file);
      return;
    case 'details': {
      const doc = await vscode.workspace.openTextDocument({
        language: 'json',
        content: JSON.stringify(detailsOf(r), null, 2),
      });
      await vscode.window.showTextDocument(doc, { preview: true });
      return;
    }
    case 'copyId':
      if (r.videoId) await vscode.env.clipboard.writeText(r.videoId);
      return;
    case 'resume':
      // The end is notified by the manager; nothing to wait for here.
      void manager.resume(key).catch((err: unknown) => showGatewayError(s, err));
      return;
    case 'stop':
      await manager.pause(key);
      return;
    case 'remove':
      await manager.remove(key);
      return;
  }
}

/** The details view: everything recorded, with readable times. */
function detailsOf(r: VideoTaskRecord): Record<string, unknown> {
  return {
    prompt: r.request.prompt,
    model: r.request.model,
    id: r.videoId ?? null,
    state: r.state,
    status: stateLabel(r),
    progress: r.progress ?? null,
    parameters: {
      seconds: r.request.seconds,
      aspect_ratio: r.request.aspect_ratio,
      resolution: r.request.resolution,
      reference_images: r.request.images,
    },
    warnings: r.warnings,
    error: r.error ?? null,
    failReason: r.failReason ?? null,
    polls: r.polls,
    transientErrors: r.transientErrors,
    created: new Date(r.createdAt).toISOString(),
    finished: r.finishedAt ? new Date(r.finishedAt).toISOString() : null,
    elapsed: formatElapsed((r.finishedAt ?? Date.now()) - r.createdAt),
    file: r.file ?? null,
    sidecar: r.sidecar ?? null,
  };
}

function icon(r: VideoTaskRecord): string {
  switch (r.state) {
    case 'creating':
    case 'polling':
    case 'downloading':
      return '$(sync~spin)';
    case 'timed_out':
    case 'paused':
      return '$(clock)';
    case 'saved':
      return '$(check)';
    case 'failed':
    case 'error':
      return '$(error)';
  }
}

/** The task list (status-bar click, "Show Video Tasks"), then the actions of the chosen task. */
async function showTaskList(s: Services, manager: VideoJobManager): Promise<void> {
  const records = manager.list();
  if (records.length === 0) {
    const gen = vscode.l10n.t('Generate Video');
    const pick = await vscode.window.showInformationMessage(vscode.l10n.t('No video tasks yet.'), gen);
    if (pick === gen) await vscode.commands.executeCommand(VIDEO_COMMANDS.generate);
    return;
  }
  const now = Date.now();
  const chosen = await vscode.window.showQuickPick(
    records.map((r) => ({
      label: `${icon(r)} ${shortPrompt(r)}`,
      description: stateLabel(r),
      detail: [r.request.model || undefined, r.videoId, formatElapsed((r.finishedAt ?? now) - r.createdAt)]
        .filter(Boolean)
        .join(' · '),
      key: r.key,
    })),
    {
      title: vscode.l10n.t('Gateway Studio: Video Tasks'),
      placeHolder: vscode.l10n.t('Choose a task for its actions'),
      matchOnDetail: true,
    },
  );
  if (!chosen) return;
  const r = manager.get(chosen.key);
  if (!r) return;
  const running = manager.isRunning(r.key);
  const actions: { label: string; action: TaskAction }[] = [];
  if (r.file) actions.push({ label: vscode.l10n.t('$(play) Open the video'), action: 'open' });
  actions.push({ label: vscode.l10n.t('$(info) Show details'), action: 'details' });
  if (r.videoId) actions.push({ label: vscode.l10n.t('$(copy) Copy the id'), action: 'copyId' });
  if (!running && canResume(r))
    actions.push({ label: vscode.l10n.t('$(debug-continue) Resume watching'), action: 'resume' });
  if (running) actions.push({ label: vscode.l10n.t('$(debug-pause) Stop watching'), action: 'stop' });
  actions.push({ label: vscode.l10n.t('$(trash) Remove from the list'), action: 'remove' });
  const act = await vscode.window.showQuickPick(actions, { title: shortPrompt(r), placeHolder: stateLabel(r) });
  if (act) await runAction(s, manager, r.key, act.action);
}
