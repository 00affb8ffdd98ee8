/**
 * Where agent files live and how the list is put together: the built-in agents first (their
 * names are reserved), then each file found, in order, workspace before user; a file that
 * cannot be used is kept in the source list with why (Restricted Mode, a parse error, a name
 * taken), so nothing the user wrote vanishes without a word.
 */
import * as l10n from '@vscode/l10n';
import type { CustomizationSource } from '../../../contracts/customizations';
import { findAgent, isBuiltinName, type AgentDefinition, type AgentSourceFile } from './agent';
import type { ParsedAgent } from './agentFile';

/** The documented folders of agent files, relative to a workspace folder or the home folder. */
export const AGENT_FOLDERS: readonly {
  scope: AgentSourceFile['scope'];
  dir: string;
  format: AgentSourceFile['format'];
}[] = [
  // VS Code reads every `.md` in `.github/agents`, `.agent.md` being the documented name.
  { scope: 'workspace', dir: '.github/agents', format: 'vscode' },
  { scope: 'workspace', dir: '.claude/agents', format: 'claude' },
  { scope: 'user', dir: '.copilot/agents', format: 'vscode' },
  { scope: 'user', dir: '.claude/agents', format: 'claude' },
];

/** Larger files are not read (an agent's instructions are capped far below this anyway). */
export const MAX_AGENT_FILE_BYTES = 256 * 1024;

/** Whether a file in one of those folders is an agent file. */
export function isAgentFileName(name: string): boolean {
  return /\.md$/i.test(name) && !name.startsWith('.');
}

/** A file found, read or refused before parsing (too large, a link out of the workspace). */
export type FoundAgentFile =
  | { readonly source: AgentSourceFile; readonly parsed: ParsedAgent }
  | { readonly source: AgentSourceFile; readonly name: string; readonly refused: string };

export interface AgentList {
  /** Every usable agent: the built-ins, then the custom ones. */
  readonly agents: AgentDefinition[];
  /** Every custom agent file, usable or not, for the customizations list. */
  readonly sources: CustomizationSource[];
}

export function assembleAgents(
  builtins: readonly AgentDefinition[],
  files: readonly FoundAgentFile[],
  o: { trusted: boolean; active?: string },
): AgentList {
  const agents: AgentDefinition[] = [...builtins];
  const sources: CustomizationSource[] = [];
  for (const f of files) {
    const name = 'parsed' in f ? f.parsed.name : f.name;
    const problems = 'parsed' in f ? f.parsed.problems : [];
    const off =
      'refused' in f
        ? f.refused
        : f.source.scope === 'workspace' && !o.trusted
          ? l10n.t('Restricted Mode: workspace agent files are read once you trust this folder.')
          : (f.parsed.off ??
            (isBuiltinName(name)
              ? l10n.t('The built-in agent {0} has this name; rename the agent.', name)
              : findAgent(agents, name)
                ? l10n.t('Another agent file already has the name {0}.', name)
                : undefined));
    if (!off && 'parsed' in f) agents.push(withoutOff(f.parsed));
    const applies = !off && o.active !== undefined && o.active.toLowerCase() === name.toLowerCase();
    sources.push({
      kind: 'agent',
      name,
      path: f.source.path,
      scope: f.source.scope,
      state: off ? 'off' : applies ? 'applies' : 'available',
      ...(off
        ? { why: off }
        : applies
          ? { why: l10n.t('Picked for this conversation.') }
          : { why: l10n.t('Pick it in the chat header.') }),
      problems,
    });
  }
  return { agents, sources };
}

function withoutOff(p: ParsedAgent): AgentDefinition {
  const { off: _off, ...agent } = p;
  return agent;
}
