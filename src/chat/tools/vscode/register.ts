import * as vscode from 'vscode';
import type { FeatureTool } from '../../../contracts/featureTools';
import type { Services } from '../../../platform/services';
import type { ToolInfo } from '../../../shared/protocol';
import { builtinTools, CHANGING_TOOL_NAMES, READ_ONLY_TOOL_NAMES } from '../core/builtins';
import { ToolRunner, type CardWarning, type Tool, type ToolRunnerOptions } from '../core/runner';
import type { ToolGate } from '../core/toolGate';
import { CHAT_PANEL_TYPE } from '../../conversation/core/contracts';
import type { ChatPanelApi } from './chatPort';
import { Approvals } from './approval';
import { featureTool } from './featureTools';
import { externalTools } from './lmTools';
import { ToolState } from './state';
import { AskUserBroker, type AskAnswer } from '../core/builtin/askUser';
import { VscodeToolHost } from './host';

/** A tool as the menus list it: under its trust key, with its enabled state and outside name. */
interface ListedTool {
  tool: Tool;
  key: string;
  enabled: boolean;
  lmName?: string;
}

/** Tools another capability of the chat offers (the MCP servers'), read on every request. */
export interface ChatExtraTools {
  /** The tools now; `taken` holds the names in use, which none may shadow. */
  tools(taken: ReadonlySet<string>): Tool[];
  /** Trust the capability gives on top of the user's per-tool trust (a server's read-only tools). */
  trusted(key: string): boolean;
  onDidChange: vscode.Event<void>;
}

const BUILTIN = new Set<string>([...READ_ONLY_TOOL_NAMES, ...CHANGING_TOOL_NAMES]);

/**
 * The tools feature: built-in tools and the tools of other extensions / MCP servers, the
 * approval flow (chat cards, with a quick pick or modal when the chat is not on screen), per-
 * workspace enabled/trusted state, the tools menu of the chat and the Manage Tools command.
 */
export function registerTools(
  s: Services,
  chat: ChatPanelApi,
  fromFeatures: readonly FeatureTool[] = [],
  gate?: ToolGate,
  extra?: ChatExtraTools,
  /** The chat's own tools kept outside this folder (run_subagent, the web's fetch_url), counted as built in. */
  chatTools: readonly Tool[] = [],
): { runner: ToolRunner; manageTools: () => Promise<void>; nested: NestedRunners } {
  const { context, log } = s;
  const state = new ToolState(context.workspaceState);
  const host = new VscodeToolHost();
  const approvals = new Approvals({
    onToolDecision: (l) => chat.onToolDecision(l),
    chatVisible: () => chat.isVisible?.() ?? (chatPanelOnScreen() || undefined),
  });
  context.subscriptions.push(state, host, approvals);

  const builtins = ownTools(host, chat, fromFeatures, chatTools, context.subscriptions);
  // Cards of earlier calls (stored with their conversation and call ids) follow their tasks again.
  for (const t of fromFeatures) if (t.jobs) chat.offerTaskSource?.(t.jobs);
  const taken = new Set([...BUILTIN, ...builtins.map((t) => t.definition.function.name)]);
  // Enabled and trusted state is kept under each tool's key: a built-in tool's name, an outside
  // tool's own identity (see core/externalToolNames), never an outside tool's wire name.
  const allTools = (): ListedTool[] => listTools(builtins, taken, state, extra);
  /** The key of the tool listed now under this wire name (the chat's toggles send wire names). */
  const keyOf = (name: string): string | undefined =>
    allTools().find((t) => t.tool.definition.function.name === name)?.key;

  const options: ToolRunnerOptions = {
    tools: () =>
      allTools()
        // load_skill costs its definition on every request: offered only while a skill may be loaded.
        .filter((t) => t.enabled && (t.key !== 'load_skill' || (chat.skills?.modelSkills().length ?? 0) > 0))
        .map((t) => t.tool),
    approve: (req) => approvals.approve(req),
    trust: extra ? { isTrusted: (k) => state.isTrusted(k) || extra.trusted(k), trust: (k) => state.trust(k) } : state,
    choice: () => state.choice(),
    onUpdate: (u) => chat.postToolCall(u),
    onUnexpectedError: (name, e) =>
      log.error(`tool ${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
    warningText,
    // Read on every call: granting trust brings the tools' trust back at once.
    workspaceTrusted: () => chat.isWorkspaceTrusted?.() ?? vscode.workspace.isTrusted,
    ...(gate ? { gate: () => gate } : {}),
  };
  const runner = new ToolRunner(options);
  // A subagent's calls: the same tools, trust and hooks; its own approver and cards, no forced tool.
  const nested: NestedRunners = {
    runner: (o) => new ToolRunner({ ...options, ...o, choice: () => 'auto' }),
    approve: (req) => approvals.approve(req),
  };

  const infos = (): ToolInfo[] =>
    allTools().map(({ tool, key, enabled }) => ({
      name: tool.definition.function.name,
      description: tool.definition.function.description ?? '',
      readOnly: tool.readOnly,
      enabled,
      trusted: state.isTrusted(key),
      ...(tool.preview ? { preview: tool.preview } : {}),
    }));
  const publish = () => chat.postTools(infos(), state.choice());

  const setTrusted = (key: string, on: boolean) => confirmTrust(allTools, state, publish, key, on);

  chat.setToolExecutor(runner);
  context.subscriptions.push(
    chat.onToolSettings((e) => {
      const key = e.kind === 'choice' ? undefined : keyOf(e.name);
      if (e.kind === 'enabled') {
        if (key !== undefined) void state.setEnabled(key, e.enabled);
      } else if (e.kind === 'trusted') {
        if (key !== undefined) void setTrusted(key, e.trusted);
      } else void state.setChoice(e.choice);
    }),
    state.onDidChange(publish),
    ...(extra ? [extra.onDidChange(publish)] : []),
    vscode.workspace.onDidGrantWorkspaceTrust(publish),
  );
  publish();

  // The Manage Tools command is registered at activation by the chat (vscode/register.ts).
  return { runner, manageTools: () => manageTools(allTools(), state, setTrusted), nested };
}

/**
 * The built-in tools, other features' (video) and the chat's own (`run_subagent`): all count as
 * built in, on by default, and no outside tool may shadow them.
 */
function ownTools(
  host: VscodeToolHost,
  chat: ChatPanelApi,
  fromFeatures: readonly FeatureTool[],
  chatTools: readonly Tool[],
  subscriptions: vscode.Disposable[],
): Tool[] {
  return [
    ...builtinTools(host, {
      ...(chat.checkpointRecorder ? { recorder: chat.checkpointRecorder } : {}),
      ...(chat.skills ? { skills: chat.skills } : {}),
      ...askOption(chat, subscriptions),
    }),
    ...fromFeatures.map((t) => featureTool(t, (c, id, key, src) => chat.followTask?.(c, id, key, src))),
    ...chatTools,
  ];
}

/** Runners for subagents (`chat/subagents`) over the chat's tools, and the chat's approver. */
export interface NestedRunners {
  runner(o: Pick<ToolRunnerOptions, 'approve' | 'onUpdate'>): ToolRunner;
  approve: ToolRunnerOptions['approve'];
}

/** Every tool with its key and enabled state: built-in, other extensions', then the extra ones (MCP). */
function listTools(
  builtins: readonly Tool[],
  taken: ReadonlySet<string>,
  state: ToolState,
  extra: ChatExtraTools | undefined,
): ListedTool[] {
  const external = externalTools(taken);
  const used = new Set([...taken, ...external.map((t) => t.definition.function.name)]);
  return [
    ...builtins.map((tool) => {
      const key = tool.definition.function.name;
      return { tool, key, enabled: state.isEnabled(key, true) };
    }),
    ...external.map((tool) => ({
      tool,
      key: tool.trustKey,
      enabled: state.isEnabled(tool.trustKey, false),
      lmName: tool.lmName,
    })),
    // MCP servers the user defined (or approved) are on by default, like built-in tools.
    ...(extra?.tools(used) ?? []).map((tool) => {
      const key = tool.trustKey ?? tool.definition.function.name;
      return { tool, key, enabled: state.isEnabled(key, true) };
    }),
  ];
}

/** Trusting a tool that changes things is confirmed in a modal, wherever the toggle came from. */
async function confirmTrust(
  allTools: () => ListedTool[],
  state: ToolState,
  publish: () => void,
  key: string,
  on: boolean,
): Promise<void> {
  const tool = allTools().find((t) => t.key === key)?.tool;
  if (!tool) return;
  const name = tool.definition.function.name;
  if (on && !tool.readOnly) {
    const yes = vscode.l10n.t('Trust {0}', name);
    const pick = await vscode.window.showWarningMessage(
      vscode.l10n.t('Let the model use {0} in this workspace without asking?', name),
      {
        modal: true,
        detail: vscode.l10n.t(
          '{0} can change files or run commands. Trusted, it runs without showing you the change first. You can take the trust back in Gateway Studio: Manage Tools.',
          name,
        ),
      },
      yes,
    );
    if (pick !== yes) {
      publish();
      return;
    }
  }
  await state.setTrusted(key, on);
}

/** Manage Tools: which tools the model may call, then which of them run without asking. */
async function manageTools(
  list: ListedTool[],
  state: ToolState,
  setTrusted: (key: string, on: boolean) => Promise<void>,
): Promise<void> {
  // Items carry the key, so a list that changes while the picker is open cannot redirect a choice.
  type Item = vscode.QuickPickItem & { key: string };
  const items: Item[] = list.map(({ tool, key, enabled, lmName }) => ({
    key,
    label: tool.definition.function.name,
    description: [
      tool.readOnly ? vscode.l10n.t('read-only') : vscode.l10n.t('changes the workspace'),
      lmName
        ? vscode.l10n.t(
            'from {0}',
            lmName === tool.definition.function.name ? vscode.l10n.t('another extension') : lmName,
          )
        : '',
    ]
      .filter(Boolean)
      .join(' · '),
    detail: tool.definition.function.description,
    picked: enabled,
  }));
  const enabled = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title: vscode.l10n.t('Gateway Studio: tools the model may call (1/2)'),
    placeHolder: vscode.l10n.t('Checked tools are offered to the model in this workspace.'),
    ignoreFocusOut: true,
  });
  if (!enabled) return;
  const on = new Set(enabled.map((i) => i.key));
  for (const i of items) if ((i.picked ?? false) !== on.has(i.key)) await state.setEnabled(i.key, on.has(i.key));

  const trustItems: Item[] = items
    .filter((i) => on.has(i.key))
    .map((i) => ({ ...i, picked: state.isTrusted(i.key), detail: undefined }));
  if (trustItems.length === 0) return;
  const trusted = await vscode.window.showQuickPick(trustItems, {
    canPickMany: true,
    title: vscode.l10n.t('Gateway Studio: tools that run without asking (2/2)'),
    placeHolder: vscode.l10n.t('Checked tools run without asking in this workspace. Unchecked ones ask every time.'),
    ignoreFocusOut: true,
  });
  if (!trusted) return;
  const yes = new Set(trusted.map((i) => i.key));
  for (const i of trustItems) if ((i.picked ?? false) !== yes.has(i.key)) await setTrusted(i.key, yes.has(i.key));
}

/** Whether the chat editor panel is the visible tab of some editor group. */
function chatPanelOnScreen(): boolean {
  return vscode.window.tabGroups.all.some(
    (g) => g.activeTab?.input instanceof vscode.TabInputWebview && g.activeTab.input.viewType.endsWith(CHAT_PANEL_TYPE),
  );
}

/** The approval card's warning: why a call asks every time, or that its diff could not be opened. */
function warningText(kind: CardWarning): string {
  switch (kind) {
    case 'previewFailed':
      return vscode.l10n.t(
        'The diff view of this change could not be opened: review the change in the text of this request before allowing it.',
      );
    case 'workspaceConfig':
      return vscode.l10n.t('This file configures your workspace: its settings take effect as soon as it is written.');
    case 'rules':
      return vscode.l10n.t('This is a rules file: its text goes into the instructions of every later request.');
    case 'runsCode':
      return vscode.l10n.t(
        'This file runs code: git hooks, dev containers, CI workflows or direnv execute what it says.',
      );
    case 'steersAgents':
      return vscode.l10n.t(
        'This file steers coding agents: their settings, instructions, commands, skills, hooks or MCP servers, followed or run in later sessions.',
      );
    case 'secrets':
      return vscode.l10n.t(
        'This file may contain secrets (keys, tokens, passwords); what is read is sent to the model.',
      );
    case 'untrustedWorkspace':
      return vscode.l10n.t(
        "This workspace is not trusted (Restricted Mode): tools ask every time, and the folder's own configuration (git config, npm scripts) can run code when a command runs.",
      );
  }
}

/** ask_user's questions, offered where their cards can be answered; the card hears why an answer is refused. */
function askOption(chat: ChatPanelApi, subscriptions: vscode.Disposable[]): { ask?: AskUserBroker } {
  if (!chat.onToolAnswer) return {};
  const ask = new AskUserBroker();
  subscriptions.push(
    chat.onToolAnswer((callId: string, a: AskAnswer) => {
      const r = ask.answer(callId, a);
      return r.ok ? undefined : r.problem;
    }),
  );
  return { ask };
}
