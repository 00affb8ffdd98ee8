import * as vscode from 'vscode';
import type { VideoCreateRequest } from '../../api/video/videoRules';
import type { Services } from '../../platform/services';
import { PICK_TASK_COMMAND, SHOW_TASKS_COMMAND, type VideoFeature } from '../base/vscode/feature';
import { isImageUri } from '../base/vscode/images';
import type { VideoSpend } from '../base/vscode/spend';
import type { TaskAction } from '../base/vscode/taskList';
import type { VideoClients } from './clients';

// The commands' work, the task list, its actions and the wizard load on first use: activation
// only registers the commands.
const taskList = () => import('../base/vscode/taskList');
const handlers = () => import('./commandHandlers');

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
  const generate = async (args?: GenerateArgs, preselected: vscode.Uri[] = []) =>
    args
      ? (await handlers()).generateFromArgs(s, feature, args)
      : (await handlers()).generateWithWizard(s, feature, clients, spend, preselected);
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
    vscode.commands.registerCommand(VIDEO_COMMANDS.checkTask, async (pasted?: string) =>
      (await handlers()).checkTask(s, feature, clients, typeof pasted === 'string' ? pasted : undefined),
    ),
    vscode.commands.registerCommand(VIDEO_COMMANDS.pickTask, async () => (await taskList()).showTaskList(s, manager)),
    vscode.commands.registerCommand(VIDEO_COMMANDS.taskAction, async (key: string, action: TaskAction) =>
      (await taskList()).runAction(s, manager, key, action),
    ),
  );
}

function isGenerateArgs(v: unknown): v is GenerateArgs {
  return typeof v === 'object' && v !== null && typeof (v as { prompt?: unknown }).prompt === 'string';
}
