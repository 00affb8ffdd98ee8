import * as vscode from 'vscode';
import * as path from 'node:path';
import { VideoClient } from '../../api/video/video';
import type { VideoCreateRequest } from '../../api/video/videoRules';
import { assertVideoId } from '../../api/video/videoStatus';
import { getGatewayClient, showGatewayError } from '../../platform/gateway';
import { DEFAULT_PROFILE_ID } from '../../platform/profiles';
import type { Services } from '../../platform/services';
import { readSettings } from '../../platform/settings';
import { settingLayers } from '../../platform/userSettings';
import { repositoryValue } from '../../shared/settingLayers';
import { setStepContext } from '../../platform/walkthrough';
import type { VideoApi } from '../jobs/core/job';
import { VideoJobManager } from '../jobs/core/manager';
import { outputFolderFor } from '../jobs/core/outputFolder';
import type { VideoTaskRecord } from '../jobs/core/record';
import type { StatusBarModel } from '../jobs/core/summary';
import type { FeatureTaskSource } from '../../contracts/featureTools';
import { registerVideoGallery, type VideoGallery } from '../gallery/vscode/gallery';
import { imageLabel, imageToDataUrl, isImageUri } from './images';
import { registerVideoLmTools, videoChatTools } from '../tools/vscode/lmTools';
import { VideoStatusBar } from '../jobs/vscode/statusBar';
import { PICK_TASK_COMMAND, SHOW_TASKS_COMMAND } from './feature';
import { WorkspaceTaskStore } from '../jobs/vscode/store';
import type { TaskAction } from './taskList';
import type { VideoFeature } from './feature';
import { SpendDeclined, VideoSpend } from './spend';
import { costLines, type ClipCost } from '../jobs/core/costs';
import { registerStoryboard } from '../storyboard/vscode/register';

// The task list, its actions and the wizard load on first use: none is needed at activation.
const taskList = () => import('./taskList');

/** Command ids of the video feature. */
export const VIDEO_COMMANDS = {
  generate: 'gatewayStudio.video.generate',
  generateFromImages: 'gatewayStudio.video.generateFromImages',
  checkTask: 'gatewayStudio.video.checkTask',
  /** Opens the gallery (the status-bar item runs it too). */
  showTasks: SHOW_TASKS_COMMAND,
  /** The quick-pick task list, for keyboard users. */
  pickTask: PICK_TASK_COMMAND,
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
  /** Per task key: the estimate and charge kept, and the card's lines for them. */
  costs: Record<string, ClipCost & { cost?: string; flag?: string }>;
}

/** A request given to the Generate Video command directly (automation, tests): skips the quick input. */
export interface GenerateArgs extends Partial<VideoCreateRequest> {
  prompt: string;
  /** Image files (absolute or workspace-relative paths), sent as base64 data URLs. */
  imageFiles?: string[];
}

/**
 * The video feature: commands, the status-bar item, the gallery, the language-model tools, and
 * resumption of unfinished tasks. Every task, whoever starts it, goes through the one manager.
 * Returns the tools the chat panel offers (handed over by `extension.ts`).
 */
export function registerVideo(s: Services): { manager: VideoJobManager } {
  // A task runs on the profile it was started on (a task from before profiles: Default), never
  // on whichever is active now: its key and address are that profile's until it ends.
  const videoClient = async (profile: string = s.profiles.activeId()) =>
    new VideoClient((await getGatewayClient(s, 'video', profile)).http);
  // Built per call (per poll round) so a new key or base URL applies to the next request (round)
  // of a running task.
  const apiFor = (profile: string | undefined): VideoApi => {
    const p = profile ?? DEFAULT_PROFILE_ID;
    return {
      create: async (req, signal) => (await videoClient(p)).create(req, signal),
      readerForRound: () => videoClient(p),
      download: async (src, dest, o) => (await videoClient(p)).download(src, dest, o),
    };
  };
  const api = apiFor(undefined);
  let chosenFolder: string | undefined;
  const destination = async (): Promise<string | undefined> => {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
    // A dev container's settings (the remote machine's layer) are the repository's, like the folder's.
    const fromRepo = repositoryValue(settingLayers('video.outputFolder'), (v) => typeof v === 'string');
    const dir = await outputFolderFor({
      value: readSettings().video.outputFolder,
      repoValue: fromRepo?.value as string | undefined,
      folder: folders[0]?.uri.fsPath,
      roots: folders.map((f) => f.uri.fsPath),
    });
    if (dir !== undefined) return dir;
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
  const changed = new vscode.EventEmitter<{ record: VideoTaskRecord; removed: boolean }>();
  s.context.subscriptions.push(changed);
  const taskStore = new WorkspaceTaskStore(s.context.workspaceState);
  const unreadable = taskStore.unreadable();
  // Kept as they are (a newer version's records): said once so a missing task can be explained.
  if (unreadable.length)
    s.log.info(
      `keeping ${unreadable.length} video task record(s) this version cannot read: ${unreadable.map((u) => u.key).join(', ')}`,
    );
  const manager = new VideoJobManager(
    {
      api,
      apiFor,
      profile: () => s.profiles.activeId(),
      store: taskStore,
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
        changed.fire({ record: r, removed });
        if (removed) void spend.costs.remove(r.key);
        // The walkthrough's "Generate a video" step completes once the gateway accepted a task.
        if (!removed && r.videoId) setStepContext('videoStarted', true);
      },
      onEnd: (r, end) => {
        // Only a task the gateway accepted can have been charged; a pause ends nothing.
        if (end !== 'paused' && r.videoId)
          void getGatewayClient(s, 'video', r.profile ?? DEFAULT_PROFILE_ID).then(
            (c) =>
              s.usage.emit({
                kind: 'clip',
                gateway: c.http.baseUrl,
                videoId: r.videoId,
                model: r.request.model,
                seconds: r.request.seconds,
                resolution: r.request.resolution,
                end,
              }),
            () => undefined,
          );
        void taskList().then((t) => t.notifyEnd(s, manager, r, end));
      },
    },
  );
  s.context.subscriptions.push(bar, { dispose: () => manager.dispose() });
  // Removing a profile asks first when tasks still run on it (src/profiles); once it is removed
  // they stop at once, as the question said (a poll round would otherwise go on with its client
  // and the removed key); Resume finishes them after the profile is added again. Only once the
  // list is read: before that it holds Default alone.
  s.context.subscriptions.push(
    s.profiles.registerUser((id) =>
      manager.runningOn(id, id === DEFAULT_PROFILE_ID).map((r) => r.request.prompt.slice(0, 40) || r.videoId || r.key),
    ),
    s.profiles.onDidChange(() =>
      s.profiles.ready().then(() => {
        for (const r of manager.list())
          if (r.profile !== undefined && manager.isRunning(r.key) && !s.profiles.get(r.profile))
            void manager.pause(r.key).then(
              () => s.log.info(`video task ${r.videoId ?? r.key} stopped: its profile was removed`),
              (e: unknown) => s.log.warn(`video task ${r.key} did not stop: ${String(e)}`),
            );
      }),
    ),
  );
  const spend = new VideoSpend(
    s,
    () => manager,
    (key) => {
      const record = manager.get(key);
      if (record) changed.fire({ record, removed: false });
    },
  );
  s.context.subscriptions.push(spend);

  /** Where videos go now, without asking (undefined: no folder open and none chosen yet). */
  const outputDir = (): string | undefined => {
    const out = readSettings().video.outputFolder.trim() || 'videos';
    if (path.isAbsolute(out)) return out;
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
    return folder ? path.join(folder.uri.fsPath, out) : chosenFolder;
  };
  const feature: VideoFeature = {
    manager,
    onDidChange: changed.event,
    outputDir,
    quote: (request) => spend.quote(request),
    costOf: (key) => spend.costOf(key),
    confirmAgent: (action, quotes) => spend.confirmAgent(action, quotes),
    // A profile's own video model (issue 22); Profile.videoModel is the setting when it has none.
    videoModel: () => s.profiles.active().videoModel,
    start: async (request, imageLabels, o) => {
      const profile = s.profiles.activeId();
      await videoClient(profile); // a missing base URL or key is reported before a task is recorded
      // Before anything is recorded or sent: a price above the user's limit asks first.
      const q = await spend.quote(request);
      if (!o?.priceConfirmed && !(await spend.confirm(q))) throw new SpendDeclined(q.line);
      const { record } = await manager.submit({ request, imageLabels, profile });
      void spend.noteQuote(record.key, q).then(() => {
        const now = manager.get(record.key);
        if (now) changed.fire({ record: now, removed: false });
      });
      s.log.info(`video task started: model ${request.model}, ${imageLabels.length} reference image(s)`);
      return record;
    },
  };

  const submit = async (request: VideoCreateRequest, imageLabels: string[]): Promise<string | undefined> => {
    try {
      const record = await feature.start(request, imageLabels);
      if (record.warnings.length) void vscode.window.showWarningMessage(record.warnings.join(' '));
      return record.key;
    } catch (err) {
      if (!(err instanceof SpendDeclined)) showGatewayError(s, err);
      return undefined;
    }
  };

  const generate = async (args?: GenerateArgs, preselected: vscode.Uri[] = []): Promise<string | undefined> => {
    const settings = { ...readSettings(), videoModel: feature.videoModel() };
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
      const { runVideoWizard } = await import('../wizard/vscode/wizard');
      result = await runVideoWizard(
        settings,
        async () => (await videoClient()).listVideoModels(),
        preselected,
        async (r) => VideoSpend.priceLine(await spend.quote(r)),
      );
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
    vscode.commands.registerCommand(VIDEO_COMMANDS.pickTask, async () => (await taskList()).showTaskList(s, manager)),
    vscode.commands.registerCommand(VIDEO_COMMANDS.debugState, (): VideoDebugState => ({
      tasks: manager.list(),
      running: manager
        .list()
        .filter((r) => manager.isRunning(r.key))
        .map((r) => r.key),
      statusBar: bar.model,
      costs: Object.fromEntries(
        manager.list().map((r) => {
          const c = spend.costOf(r.key);
          return [r.key, { ...c, ...costLines(c) }];
        }),
      ),
    })),
    vscode.commands.registerCommand(VIDEO_COMMANDS.taskAction, async (key: string, action: TaskAction) =>
      (await taskList()).runAction(s, manager, key, action),
    ),
  );

  const gallery = registerVideoGallery(s, feature);
  registerVideoLmTools(s, feature);
  // Boards reuse the gallery's take cards; their editor and tools load on first use.
  const boardTools = registerStoryboard(s, feature, (r, asUri) => gallery.toTask(r, asUri));

  // Tasks that were running when the window closed carry on (never re-created).
  const resumed = manager.resumeUnfinished();
  if (resumed.length) s.log.info(`resuming ${resumed.length} unfinished video task(s)`);
  void manager.startupCleanup.then((removed) => {
    if (removed.length)
      s.log.info(`removed ${removed.length} leftover partial video download(s): ${removed.join(', ')}`);
  });
  bar.refresh();
  s.chatTools.push(...videoChatTools(feature, videoTaskSource(feature, gallery)), ...boardTools);
  return { manager };
}

function isGenerateArgs(v: unknown): v is GenerateArgs {
  return typeof v === 'object' && v !== null && typeof (v as { prompt?: unknown }).prompt === 'string';
}

function workspaceUri(rel: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error(vscode.l10n.t('{0} is a relative path but no folder is open.', rel));
  return vscode.Uri.joinPath(folder.uri, rel);
}

/** The video tasks as the chat's tool cards follow them (shown like the gallery shows them). */
function videoTaskSource(feature: VideoFeature, gallery: VideoGallery): FeatureTaskSource {
  return {
    kind: 'videoTask',
    watch: (key, listener) =>
      feature.onDidChange((e) => {
        if (e.record.key === key) listener();
      }),
    describe: async (key, asWebviewUri) => {
      const r = feature.manager.get(key);
      return r ? gallery.toTask(r, (u) => asWebviewUri(u.fsPath)) : undefined;
    },
    resourceRoots: () => gallery.mediaRoots().map((u) => u.fsPath),
    act: async (key, action) => {
      const file = feature.manager.get(key)?.file;
      if (!file) return;
      if (action === 'open') await (await taskList()).openVideo(file);
      else if (action === 'reveal') await (await taskList()).revealVideo(file);
      else await vscode.env.openExternal(vscode.Uri.file(file));
    },
  };
}
