import * as vscode from 'vscode';
import type { FeatureTool } from '../../../contracts/featureTools';
import type { Services } from '../../../platform/services';
import type { VideoFeature } from '../../base/vscode/feature';
import { storyboardChatTools, registerStoryboardLmTools } from './toolDefs';
import type { ToTask } from './view';
// Static under the flag: registered before activation returns; esbuild drops it from the product.
import { registerStoryboardTestCommands } from './testCommands';

/** The custom editor's view type (package.json `customEditors`). */
export const STORYBOARD_VIEW_TYPE = 'gatewayStudio.storyboard';
export const STORYBOARD_COMMANDS = {
  new: 'gatewayStudio.storyboard.new',
  /** Hidden: `(path, shotId?)` Generate shot / Generate all of an open board, as its buttons do. */
  generate: 'gatewayStudio.storyboard.generate',
} as const;

/**
 * What activation registers for storyboards: the custom editor, its commands and the agent tools,
 * each a few lines that load the board code (`./editor`, `./agentTools`) on first use.
 */
export function registerStoryboard(s: Services, feature: VideoFeature, toTask: ToTask): FeatureTool[] {
  const editor = () => import('./editor');
  s.context.subscriptions.push(
    vscode.window.registerCustomEditorProvider(
      STORYBOARD_VIEW_TYPE,
      {
        resolveCustomTextEditor: async (doc, panel) =>
          (await editor()).resolveBoardEditor(s, feature, toTask, doc, panel),
      },
      { webviewOptions: { retainContextWhenHidden: true }, supportsMultipleEditorsPerDocument: false },
    ),
    vscode.commands.registerCommand(STORYBOARD_COMMANDS.new, async () =>
      (await import('./agentTools')).newBoardCommand(),
    ),
    vscode.commands.registerCommand(STORYBOARD_COMMANDS.generate, async (file: string, shotId?: string) => {
      const session = (await editor()).sessions.get(file);
      return session ? session.gen.generate(typeof shotId === 'string' ? shotId : undefined) : undefined;
    }),
  );
  if (__GWS_TEST_COMMANDS__) registerStoryboardTestCommands(s, editor);
  registerStoryboardLmTools(s, feature);
  return storyboardChatTools(s, feature);
}
