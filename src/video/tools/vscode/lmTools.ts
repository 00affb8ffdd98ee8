import * as vscode from 'vscode';
import { FeatureToolError, type FeatureTool, type MediaJobSource } from '../../../contracts/featureTools';
import type { Services } from '../../../platform/services';
import { ConfirmationLedger, NOT_CONFIRMED_TEXT, planKey } from '../core/confirmations';
import { GENERATE_VIDEO_JSON_SCHEMA, VIDEO_STATUS_JSON_SCHEMA } from '../core/toolInput';
import { notStartedText } from '../../jobs/core/errorText';
import { VideoAgent } from './agent';
import { registerLmToolTestCommands } from './testCommands';
import type { VideoFeature } from '../../base/vscode/feature';
import { VideoSpend } from '../../base/vscode/spend';

/** Names in `vscode.lm.tools` (package.json `languageModelTools`). */
export const LM_TOOL_NAMES = { generate: 'gatewayStudio_generateVideo', status: 'gatewayStudio_videoStatus' } as const;
/** Names in the chat panel's tool set. */
export const CHAT_TOOL_NAMES = { generate: 'generate_video', status: 'video_status' } as const;

/** The answer when the user declined our own question (for the model, which tells the user). */
const AGENT_DECLINED_TEXT =
  "The video task was not started: the user declined it in Gateway Studio's own confirmation, which names the price. Nothing was sent or billed. Do not call the tool again unless the user asks.";

const text = (t: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(t)]);

const MD_SPECIAL = /[\\`*_{}[\]()#+\-.!|<>]/g;

/** Plain lines as markdown: special characters escaped (a prompt is not markup), hard breaks. */
function markdownLines(lines: string): vscode.MarkdownString {
  // Not appendText: it turns every space into &nbsp;, which the confirmation dialog shows as is.
  return new vscode.MarkdownString(
    lines
      .split('\n')
      .map((l) => l.replace(MD_SPECIAL, '\\$&'))
      .join('  \n'),
  );
}

/**
 * The two tools in `vscode.lm.tools`, for any chat that uses VS Code's tools (`#generateVideo`,
 * `#videoStatus`). Generation asks for confirmation (a billed action); a request that breaks a
 * rule asks nothing, since nothing will be sent, and its result names each rule.
 */
export function registerVideoLmTools(s: Services, feature: VideoFeature): void {
  const agent = new VideoAgent(feature);
  // A billed task starts only for the exact plan whose confirmation VS Code showed (see ledger).
  const confirmed = new ConfirmationLedger();
  const prepare = async (input: unknown, record: boolean): Promise<vscode.PreparedToolInvocation> => {
    const plan = await agent.plan(input);
    if (!plan.ok) return { invocationMessage: vscode.l10n.t('Checking the video request') };
    const { confirmationText } = await import('../core/agentText');
    const c = confirmationText(plan.request, plan.labels, VideoSpend.priceLine(await feature.quote(plan.request)));
    if (record) confirmed.record(planKey(plan.request));
    return {
      invocationMessage: vscode.l10n.t('Starting a video task with {0}', plan.request.model),
      confirmationMessages: { title: c.title, message: markdownLines(c.message) },
    };
  };
  const invoke = async (input: unknown, token: vscode.CancellationToken) => {
    const plan = await agent.plan(input);
    if (!plan.ok) return text((await import('../core/agentText')).rulesResult(plan.issues));
    if (!confirmed.consume(planKey(plan.request))) {
      s.log.warn('video tool: an invocation without a matching confirmation was refused; nothing was sent');
      return text(NOT_CONFIRMED_TEXT);
    }
    // Our own question: VS Code's confirmation above may have been auto-approved.
    const q = await feature.quote(plan.request);
    const what = vscode.l10n.t('a {0} s video with {1}', plan.request.seconds ?? '?', plan.request.model);
    const answer = await feature.confirmAgent(what, [q]);
    if (answer === 'declined') return text(AGENT_DECLINED_TEXT);
    const ac = new AbortController();
    const sub = token.onCancellationRequested(() => ac.abort());
    try {
      return text((await agent.start(plan, ac.signal, { priceConfirmed: answer === 'confirmed' })).text);
    } catch (e) {
      s.log.error(`video tool: ${e instanceof Error ? e.message : String(e)}`);
      return text(notStartedText(e));
    } finally {
      sub.dispose();
    }
  };
  s.context.subscriptions.push(
    vscode.lm.registerTool<unknown>(LM_TOOL_NAMES.generate, {
      prepareInvocation: (options) => prepare(options.input, true),
      invoke: (options, token) => invoke(options.input, token),
    }),
    vscode.lm.registerTool<unknown>(LM_TOOL_NAMES.status, {
      prepareInvocation: () => ({ invocationMessage: vscode.l10n.t('Checking video tasks') }),
      invoke: async (options) => text(await agent.status(options.input)),
    }),
  );
  // The host tests' seams (src/testCommands.d.ts); esbuild drops this branch and its import from the product.
  if (__GWS_TEST_COMMANDS__) registerLmToolTestCommands(s, prepare, invoke);
}

/** The same two tools for the chat panel's tool runner (handed over by `extension.ts`). */
export function videoChatTools(
  feature: VideoFeature,
  /** package.json's `modelDescription`s of #generateVideo (with the catalog's families) and #videoStatus. */
  descriptions: { generate: string; status: string },
  jobs?: MediaJobSource,
): FeatureTool[] {
  const agent = new VideoAgent(feature);
  return [
    {
      name: CHAT_TOOL_NAMES.generate,
      description: descriptions.generate,
      parameters: { ...GENERATE_VIDEO_JSON_SCHEMA },
      readOnly: false,
      ...(jobs ? { jobs } : {}),
      prepare: async (args) => {
        const plan = await agent.plan(args);
        const { confirmationText, rulesResult } = await import('../core/agentText');
        if (!plan.ok) throw new FeatureToolError(rulesResult(plan.issues));
        const price = VideoSpend.priceLine(await feature.quote(plan.request));
        const c = confirmationText(plan.request, plan.labels, price);
        return {
          summary: `${c.title}\n${c.message}`,
          // The card's price line while it asks, as the image tools show theirs.
          note: vscode.l10n.t('{0} Billed to your gateway account.', /[.]$/.test(price) ? price : `${price}.`),
          run: async (call) => {
            try {
              const started = await agent.start(plan, call.signal);
              return {
                content: started.text,
                // The card keeps showing the task (progress, then the saved file) after the call ends.
                ...(started.record?.key ? { follow: { kind: 'video' as const, key: started.record.key } } : {}),
              };
            } catch (e) {
              throw new FeatureToolError(notStartedText(e));
            }
          },
        };
      },
    },
    {
      name: CHAT_TOOL_NAMES.status,
      description: descriptions.status,
      parameters: { ...VIDEO_STATUS_JSON_SCHEMA },
      readOnly: true,
      prepare: (args) => Promise.resolve({ run: async () => ({ content: await agent.status(args) }) }),
    },
  ];
}
