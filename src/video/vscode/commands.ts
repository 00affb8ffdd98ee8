import * as vscode from 'vscode';
import * as path from 'node:path';
import type { VideoCreateRequest } from '../../api/video/videoRules';
import { assertVideoId } from '../../api/video/videoStatus';
import { showGatewayError } from '../../platform/gateway';
import type { Services } from '../../platform/services';
import { readSettings } from '../../platform/settings';
import { PICK_TASK_COMMAND, SHOW_TASKS_COMMAND, type VideoFeature } from '../base/vscode/feature';
import { imageLabel, imageToDataUrl, isImageUri } from '../base/vscode/images';
import { SpendDeclined, VideoSpend } from '../base/vscode/spend';
import type { TaskAction } from '../base/vscode/taskList';
import type { VideoClients } from './clients';

// The task list, its actions and the wizard load on first use: none is needed at activation.
const taskList = () => import('../base/vscode/taskList');

/** Command ids of the video feature. */
export const VIDEO_COMMANDS = {
  generate: 'gatewayStudio.video.generate',
  generateFromImages: 'gatewayStudio.video.generateFromImages',
  checkTask: 'gatewayStudio.video.checkTask',
  /** Opens the gallery (the status-bar item runs it too). */
  showTasks: SHOW_TASKS_COMMAND,
  /** The quick-pick task list, for keyboard users. */
  pickTask: PICK_TASK_COMMAND,
  /** Hidden: `(key, action)` runs a task-list action without the quick pick (integration tests). */
  taskAction: 'gatewayStudio.video.taskAction',
} as const;

/** A request given to the Generate Video command directly (automation, tests): skips the quick input. */
export interface GenerateArgs extends Partial<VideoCreateRequest> {
  prompt: string;
  /** Image files (absolute or workspace-relative paths), sent as base64 data URLs. */
  imageFiles?: string[];
}

/** The commands of the video feature (the gallery registers Show Tasks). */
export function registerVideoCommands(
  s: Services,
  feature: VideoFeature,
  clients: VideoClients,
  spend: VideoSpend,
): void {
  const generate = (args?: GenerateArgs, preselected: vscode.Uri[] = []) =>
    args ? generateFromArgs(s, feature, args) : generateWithWizard(s, feature, clients, spend, preselected);
  const manager = feature.manager;
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
    vscode.commands.registerCommand(VIDEO_COMMANDS.checkTask, (pasted?: string) =>
      checkTask(s, feature, clients, typeof pasted === 'string' ? pasted : undefined),
    ),
    vscode.commands.registerCommand(VIDEO_COMMANDS.pickTask, async () => (await taskList()).showTaskList(s, manager)),
    vscode.commands.registerCommand(VIDEO_COMMANDS.taskAction, async (key: string, action: TaskAction) =>
      (await taskList()).runAction(s, manager, key, action),
    ),
  );
}

/** Starts the task; its key, or undefined when it did not start (the user was told why). */
async function submit(
  s: Services,
  feature: VideoFeature,
  request: VideoCreateRequest,
  imageLabels: string[],
): Promise<string | undefined> {
  try {
    const record = await feature.start(request, imageLabels);
    if (record.warnings.length) void vscode.window.showWarningMessage(record.warnings.join(' '));
    return record.key;
  } catch (err) {
    if (!(err instanceof SpendDeclined)) showGatewayError(s, err);
    return undefined;
  }
}

/** The command's arguments fill the request; the settings and the profile's model the rest. */
async function generateFromArgs(s: Services, feature: VideoFeature, args: GenerateArgs): Promise<string | undefined> {
  const settings = readSettings().video;
  try {
    const files = (args.imageFiles ?? []).map((f) => (path.isAbsolute(f) ? vscode.Uri.file(f) : workspaceUri(f)));
    const dataUrls = await Promise.all(files.map((u) => imageToDataUrl(u)));
    const urls = [...(args.image_urls ?? []), ...dataUrls];
    const request: VideoCreateRequest = {
      model: args.model ?? feature.videoModel(),
      prompt: args.prompt,
      seconds: args.seconds ?? settings.seconds,
      aspect_ratio: args.aspect_ratio ?? settings.aspectRatio,
      resolution: args.resolution ?? settings.resolution,
    };
    if (urls.length) request.image_urls = urls;
    return await submit(s, feature, request, [...(args.image_urls ?? []), ...files.map(imageLabel)]);
  } catch (err) {
    showGatewayError(s, err);
    return undefined;
  }
}

/** The quick-input wizard (loaded on first use), starting from the images chosen in the explorer. */
async function generateWithWizard(
  s: Services,
  feature: VideoFeature,
  clients: VideoClients,
  spend: VideoSpend,
  preselected: vscode.Uri[],
): Promise<string | undefined> {
  let result;
  try {
    const { runVideoWizard } = await import('../wizard/vscode/wizard');
    result = await runVideoWizard(
      { ...readSettings(), videoModel: feature.videoModel() },
      async () => (await clients.client()).listVideoModels(),
      preselected,
      async (r) => VideoSpend.priceLine(await spend.quote(r)),
    );
  } catch (err) {
    showGatewayError(s, err);
    return undefined;
  }
  if (!result) return undefined;
  return submit(s, feature, result.request, result.imageLabels);
}

/** Follows a task by its id (pasted, or asked for): checked, downloaded when done, never submitted again. */
async function checkTask(
  s: Services,
  feature: VideoFeature,
  clients: VideoClients,
  pasted: string | undefined,
): Promise<string | undefined> {
  const id = pasted ?? (await askVideoId());
  if (id === undefined || (pasted === undefined && !id.trim())) return undefined;
  try {
    await clients.client();
    const { record } = await feature.manager.track(id);
    return record.key;
  } catch (err) {
    showGatewayError(s, err);
    return undefined;
  }
}

function askVideoId(): Thenable<string | undefined> {
  return vscode.window.showInputBox({
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
}

function isGenerateArgs(v: unknown): v is GenerateArgs {
  return typeof v === 'object' && v !== null && typeof (v as { prompt?: unknown }).prompt === 'string';
}

function workspaceUri(rel: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error(vscode.l10n.t('{0} is a relative path but no folder is open.', rel));
  return vscode.Uri.joinPath(folder.uri, rel);
}
