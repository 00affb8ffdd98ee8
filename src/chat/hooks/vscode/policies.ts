/**
 * The user's policies for the chat, put together: the hook files (approved by content, off in
 * Restricted Mode) run by one engine, and the command rules from the settings. The engine and the
 * rules make one gate for the tool runner (hooks first, so the rules judge a rewritten command);
 * the engine is also the session's hooks. Loaded on first use by the chat's composition point.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { CustomizationSourceProvider } from '../../../contracts/customizations';
import type { PersistedState } from '../../../platform/persistedState';
import type { SessionHooks } from '../../session/core/sessionDeps';
import { chainGates, type ToolGate } from '../../tools/core/toolGate';
import { commandRulesGate } from '../core/commandRules';
import { HookEngine } from '../core/hookEngine';
import { commandRuleSources, commandRulesNow } from './commandRuleSettings';
import { HookFiles } from './hookFiles';

export interface ChatPolicies {
  readonly gate: ToolGate;
  readonly session: SessionHooks;
  /** For the customizations list: the hook files, then the command rules. */
  readonly sources: readonly CustomizationSourceProvider[];
}

export function chatPolicies(o: { state: PersistedState; isTrusted: () => boolean }): ChatPolicies {
  const files = new HookFiles({ state: o.state, isTrusted: o.isTrusted });
  const engine = new HookEngine({
    sources: () => files.runnable(),
    root: () => vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath ?? os.homedir(),
  });
  return {
    gate: chainGates([engine, commandRulesGate(commandRulesNow)]),
    session: engine,
    sources: [files, commandRuleSources],
  };
}
