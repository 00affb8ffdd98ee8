import * as vscode from 'vscode';
import { FeatureToolError, type FeatureTool } from '../../../contracts/featureTools';
import type { Services } from '../../../platform/services';
import type { MediaQuote } from '../../../platform/mediaSpend';
import type { VideoFeature } from '../../base/vscode/feature';
import { ADD_SHOT_JSON_SCHEMA, CREATE_JSON_SCHEMA, GENERATE_JSON_SCHEMA } from '../core/toolSchemas';

/** Names in `vscode.lm.tools` (package.json `languageModelTools`) and in the chat panel's tool set. */
export const STORYBOARD_LM_TOOLS = {
  create: 'gatewayStudio_createStoryboard',
  addShot: 'gatewayStudio_addStoryboardShot',
  generate: 'gatewayStudio_generateStoryboard',
} as const;
export const STORYBOARD_CHAT_TOOLS = {
  create: 'create_storyboard',
  addShot: 'add_storyboard_shot',
  generate: 'generate_storyboard',
} as const;

const DESCRIPTIONS = {
  create:
    'Creates a storyboard file (*.storyboard.json) in the workspace from shots you write for a description such as "a 3-shot demo of the login flow": one prompt per shot, its seconds, and continueFromPrevious for continuity (the previous clip\'s last frame becomes its reference image). Generates nothing.',
  addShot:
    'Adds a shot to an existing storyboard file (at the end, or after the shot with the given id). Generates nothing.',
  generate:
    'Generates the clips of a storyboard (every shot not yet generated, or one shot): a billed action the user approves first, told the number of shots, the seconds and the models. Chained shots wait for the clip they continue from. Returns at once; the board editor shows progress.',
};

const text = (t: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(t)]);
const tools = () => import('./agentTools');
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The three tools for the chat panel's runner: definitions only; the work loads on first call. */
export function storyboardChatTools(s: Services, feature: VideoFeature): FeatureTool[] {
  const wrap = (run: () => Promise<string>) => async () => {
    try {
      return { content: await run() };
    } catch (e) {
      s.log.info(`storyboard tool: ${message(e)}`);
      throw e instanceof FeatureToolError ? e : new FeatureToolError(message(e));
    }
  };
  return [
    {
      name: STORYBOARD_CHAT_TOOLS.create,
      description: DESCRIPTIONS.create,
      parameters: { ...CREATE_JSON_SCHEMA },
      readOnly: false,
      prepare: async (args) => {
        const p = await (await tools()).prepareCreate(args);
        return { summary: p.summary, run: wrap(p.run) };
      },
    },
    {
      name: STORYBOARD_CHAT_TOOLS.addShot,
      description: DESCRIPTIONS.addShot,
      parameters: { ...ADD_SHOT_JSON_SCHEMA },
      readOnly: false,
      prepare: async (args) => {
        const p = await (await tools()).prepareAddShot(args);
        return { summary: p.summary, run: wrap(p.run) };
      },
    },
    {
      name: STORYBOARD_CHAT_TOOLS.generate,
      description: DESCRIPTIONS.generate,
      parameters: { ...GENERATE_JSON_SCHEMA },
      readOnly: false,
      prepare: async (args) => {
        const p = await (await tools()).prepareGenerate(s, feature, args);
        return { summary: p.summary, run: wrap(p.run) };
      },
    },
  ];
}

/**
 * The same tools in `vscode.lm.tools`. Each call shows VS Code's confirmation; a generation runs
 * only for the exact input its confirmation named (an invoke without it is refused, sends nothing).
 */
export function registerStoryboardLmTools(s: Services, feature: VideoFeature): void {
  const confirmed = new Set<string>();
  const register = (
    name: string,
    prepare: (
      input: unknown,
    ) => Promise<{ summary: string; key?: string; quotes?: MediaQuote[]; what?: string; run: () => Promise<string> }>,
    title: string,
  ) =>
    vscode.lm.registerTool<unknown>(name, {
      prepareInvocation: async (options) => {
        try {
          const p = await prepare(options.input);
          confirmed.add(p.key ?? JSON.stringify(options.input));
          return { invocationMessage: title, confirmationMessages: { title, message: p.summary } };
        } catch {
          // Nothing will run: the invoke reports the problem.
          return { invocationMessage: title };
        }
      },
      invoke: async (options) => {
        try {
          const p = await prepare(options.input);
          const key = p.key ?? JSON.stringify(options.input);
          if (!confirmed.delete(key))
            return text(vscode.l10n.t('Not run: this call was not confirmed. Nothing was changed or sent.'));
          // A billed run (it has quotes) also gets our own question: VS Code's may be auto-approved.
          if (
            p.quotes &&
            (await feature.confirmAgent(`${title}: ${p.what ?? p.quotes.length}`, p.quotes)) === 'declined'
          )
            return text(
              "The storyboard was not generated: the user declined it in Gateway Studio's own confirmation, which names the price. Nothing was sent or billed. Do not call the tool again unless the user asks.",
            );
          return text(await p.run());
        } catch (e) {
          return text(message(e));
        }
      },
    });
  s.context.subscriptions.push(
    register(
      STORYBOARD_LM_TOOLS.create,
      async (i) => (await tools()).prepareCreate(i),
      vscode.l10n.t('Create a storyboard'),
    ),
    register(
      STORYBOARD_LM_TOOLS.addShot,
      async (i) => (await tools()).prepareAddShot(i),
      vscode.l10n.t('Add a storyboard shot'),
    ),
    register(
      STORYBOARD_LM_TOOLS.generate,
      async (i) => (await tools()).prepareGenerate(s, feature, i),
      vscode.l10n.t('Generate storyboard clips'),
    ),
  );
}
