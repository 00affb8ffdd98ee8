/**
 * What activation registers for the image tools: `generate_image` and `edit_image` for our chat
 * and our MCP server (`services.chatTools`), `#generateImage` and `#editImage` in `vscode.lm`.
 * Definitions only: the work (./agentTools) loads on the first call.
 */
import * as vscode from 'vscode';
import { FeatureToolError, type FeatureTool, type MediaJobSource } from '../../../contracts/featureTools';
import type { Services } from '../../../platform/services';
import {
  EDIT_IMAGE_DESCRIPTION,
  EDIT_IMAGE_JSON_SCHEMA,
  GENERATE_IMAGE_DESCRIPTION,
  GENERATE_IMAGE_JSON_SCHEMA,
} from '../core/toolSchemas';
import { imageJobSource } from './jobSource';
import type { ImageConfirmations } from '../core/confirmations';

export const IMAGE_LM_TOOLS = { generate: 'gatewayStudio_generateImage', edit: 'gatewayStudio_editImage' } as const;
export const IMAGE_CHAT_TOOLS = { generate: 'generate_image', edit: 'edit_image' } as const;

const work = () => import('./agentTools');
const text = (t: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(t)]);

/** Plain lines as markdown: special characters escaped (a prompt is not markup), hard breaks. */
function markdownLines(lines: string): vscode.MarkdownString {
  // Not appendText: it turns every space into &nbsp;, which the confirmation dialog shows as is.
  return new vscode.MarkdownString(
    lines
      .split('\n')
      .map((l) => l.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&'))
      .join('  \n'),
  );
}

function chatTool(s: Services, operation: 'generate' | 'edit', jobs: MediaJobSource): FeatureTool {
  return {
    name: IMAGE_CHAT_TOOLS[operation],
    description: operation === 'edit' ? EDIT_IMAGE_DESCRIPTION : GENERATE_IMAGE_DESCRIPTION,
    parameters: { ...(operation === 'edit' ? EDIT_IMAGE_JSON_SCHEMA : GENERATE_IMAGE_JSON_SCHEMA) },
    readOnly: false,
    jobs,
    prepare: async (args) => {
      const m = await work();
      const p = await m.prepareImageCall(s, operation, args);
      if (!p.ok) throw new FeatureToolError(p.text);
      return {
        // The approval card shows this: the model, the inputs and the price.
        summary: `${p.title}\n${p.message}`,
        note: p.note,
        run: async (call) => {
          let r: { text: string; files: string[] };
          try {
            r = await m.runImageCall(s, p, call.signal, { askAbove: true });
          } catch (e) {
            throw new FeatureToolError(m.failedText(e));
          }
          // The card shows the saved image inline (a webview URI of the file in the output folder).
          return { content: r.text, ...(r.files[0] ? { follow: { kind: 'image' as const, key: r.files[0] } } : {}) };
        },
      };
    },
  };
}

/** The two tools for the chat panel's runner and the MCP server. */
export function imageChatTools(s: Services): FeatureTool[] {
  const jobs = imageJobSource();
  return [chatTool(s, 'generate', jobs), chatTool(s, 'edit', jobs)];
}

/**
 * The same tools in `vscode.lm.tools`. VS Code's confirmation names the price; `invoke` sends only
 * the exact plan a confirmation showed, after our own question (VS Code's may be auto-approved).
 */
export function registerImageLmTools(s: Services): void {
  let ledger: ImageConfirmations | undefined;
  const confirmations = async () => (ledger ??= new (await import('../core/confirmations')).ImageConfirmations());
  const register = (operation: 'generate' | 'edit') =>
    vscode.lm.registerTool<unknown>(IMAGE_LM_TOOLS[operation], {
      prepareInvocation: async (options) => {
        const p = await (await work()).prepareImageCall(s, operation, options.input);
        const busy = vscode.l10n.t('Making an image');
        if (!p.ok) return { invocationMessage: busy };
        (await confirmations()).record(p.key);
        return {
          invocationMessage: busy,
          confirmationMessages: { title: p.title, message: markdownLines(p.message) },
        };
      },
      invoke: async (options, token) => {
        const m = await work();
        const c = await import('../core/confirmations');
        const p = await m.prepareImageCall(s, operation, options.input);
        if (!p.ok) return text(p.text);
        if (!(await confirmations()).consume(p.key)) return text(c.NOT_CONFIRMED_TEXT);
        if (!(await m.confirmForAgent(p))) return text(c.DECLINED_TEXT);
        const ac = new AbortController();
        const sub = token.onCancellationRequested(() => ac.abort());
        try {
          return text((await m.runImageCall(s, p, ac.signal, { askAbove: false })).text);
        } catch (e) {
          return text(m.failedText(e));
        } finally {
          sub.dispose();
        }
      },
    });
  s.context.subscriptions.push(register('generate'), register('edit'));
}
