/**
 * What activation registers for the image tools: `generate_image` and `edit_image` for our chat
 * and our MCP server (`services.chatTools`), `#generateImage` and `#editImage` in `vscode.lm`.
 * Names and schemas only: everything else (./agentTools) loads on the first call.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FeatureTool, MediaJobSource } from '../../../contracts/featureTools';
import type { Services } from '../../../platform/services';
import {
  EDIT_IMAGE_DESCRIPTION,
  EDIT_IMAGE_JSON_SCHEMA,
  GENERATE_IMAGE_DESCRIPTION,
  GENERATE_IMAGE_JSON_SCHEMA,
  SAVED_IMAGE,
} from '../core/toolSchemas';

export const IMAGE_LM_TOOLS = { generate: 'gatewayStudio_generateImage', edit: 'gatewayStudio_editImage' } as const;
export const IMAGE_CHAT_TOOLS = { generate: 'generate_image', edit: 'edit_image' } as const;

const work = () => import('./agentTools');

/**
 * The saved images a call's card follows (media kind `image`): the key is the saved file, the card
 * shows it through a webview URI of its folder; only a saved image's folder is offered to the page.
 */
function imageJobSource(): MediaJobSource {
  const folders = new Set<string>();
  return {
    kind: 'image',
    // A saved image does not change: the card is described once.
    watch: (key) => {
      if (path.isAbsolute(key) && SAVED_IMAGE.test(key)) folders.add(path.dirname(key));
      return { dispose: () => undefined };
    },
    describe: async (key, asUri) => (await import('./imageCard')).describeImage(key, asUri),
    resourceRoots: () => [...folders],
    act: async (key, action) => (await import('./imageCard')).actOnImage(key, action),
  };
}

/** The two tools for the chat panel's runner and the MCP server. */
export function imageChatTools(s: Services): FeatureTool[] {
  const jobs = imageJobSource();
  return (['generate', 'edit'] as const).map((op) => ({
    name: IMAGE_CHAT_TOOLS[op],
    description: op === 'edit' ? EDIT_IMAGE_DESCRIPTION : GENERATE_IMAGE_DESCRIPTION,
    parameters: { ...(op === 'edit' ? EDIT_IMAGE_JSON_SCHEMA : GENERATE_IMAGE_JSON_SCHEMA) },
    readOnly: false,
    jobs,
    prepare: async (args) => (await work()).chatPrepare(s, op, args),
  }));
}

/** The same tools in `vscode.lm.tools` (see ./agentTools for the confirmations). */
export function registerImageLmTools(s: Services): void {
  for (const op of ['generate', 'edit'] as const)
    s.context.subscriptions.push(
      vscode.lm.registerTool<unknown>(IMAGE_LM_TOOLS[op], {
        prepareInvocation: async (o) => (await work()).lmPrepare(s, op, o.input),
        invoke: async (o, token) => (await work()).lmInvoke(s, op, o.input, token),
      }),
    );
}
