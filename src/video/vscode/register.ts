import * as vscode from 'vscode';
import type { Services } from '../../platform/services';
import { SHOW_TASKS_COMMAND } from '../base/vscode/feature';
import { VideoSpend } from '../base/vscode/spend';
import { registerVideoGallery } from '../gallery/vscode/gallery';
import type { VideoJobManager } from '../jobs/core/manager';
import type { VideoTaskRecord } from '../jobs/core/record';
import { VideoStatusBar } from '../jobs/vscode/statusBar';
import { registerStoryboard } from '../storyboard/vscode/register';
import { LM_TOOL_NAMES, registerVideoLmTools, videoChatTools } from '../tools/vscode/lmTools';
import { videoClients } from './clients';
import { registerVideoCommands } from './commands';
import { createVideoFeature } from './feature';
import { videoJobSource } from './jobSource';
import { createVideoManager } from './manager';
import { OutputFolders } from './outputFolders';
// A static import under the flag: the seams are registered before activation returns, and esbuild
// drops this import with the branch that uses it when the flag is false (the product).
import { registerVideoTestCommands } from './testCommands';

/**
 * The video feature: commands, the status-bar item, the gallery, the language-model tools, and
 * resumption of unfinished tasks. Every task, whoever starts it, goes through the one manager.
 * Returns the tools the chat panel offers (handed over by `extension.ts`).
 */
export function registerVideo(s: Services): { manager: VideoJobManager } {
  const clients = videoClients(s);
  const folders = new OutputFolders();
  // Reads the manager lazily: the item is built first so the manager's events can reach it.
  const bar = new VideoStatusBar(() => manager.list(), SHOW_TASKS_COMMAND);
  const changed = new vscode.EventEmitter<{ record: VideoTaskRecord; removed: boolean }>();
  const manager = createVideoManager(s, clients, folders, (record, removed) => {
    bar.refresh();
    changed.fire({ record, removed });
    if (removed) void spend.costs.remove(record.key);
  });
  const spend = new VideoSpend(
    s,
    () => manager,
    (key) => {
      const record = manager.get(key);
      if (record) changed.fire({ record, removed: false });
    },
  );
  s.context.subscriptions.push(changed, bar, spend);
  const feature = createVideoFeature(s, { manager, changed, clients, folders, spend });
  registerVideoCommands(s, feature, clients, spend);
  if (__GWS_TEST_COMMANDS__) registerVideoTestCommands(s, { manager, bar, spend });

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
  s.chatTools.push(
    ...videoChatTools(feature, manifestDescriptions(s), videoJobSource(feature, gallery)),
    ...boardTools,
  );
  return { manager };
}

/**
 * The video tools' `modelDescription`s as package.json ships them (scripts/video-tools-manifest.ts
 * writes them from src/video/tools/core): the chat's copies, without loading that code at activation.
 */
function manifestDescriptions(s: Services): { generate: string; status: string } {
  const pkg = s.context.extension?.packageJSON as
    { contributes?: { languageModelTools?: { name?: string; modelDescription?: string }[] } } | undefined;
  const of = (name: string, fallback: string) =>
    pkg?.contributes?.languageModelTools?.find((t) => t.name === name)?.modelDescription ?? fallback;
  return {
    generate: of(
      LM_TOOL_NAMES.generate,
      'Generates a video with the Gateway Studio gateway (billed; the user confirms).',
    ),
    status: of(LM_TOOL_NAMES.status, 'Reports Gateway Studio video tasks.'),
  };
}
