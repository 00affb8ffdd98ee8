/**
 * Reads one custom agent file, in the format its folder says: VS Code's `.agent.md` (YAML lists,
 * `model` as a name or an ordered list, `handoffs`, `user-invocable`, …) or Claude Code's
 * `.claude/agents/*.md` (`name` required, `tools` and `disallowedTools` as comma lists, `model`
 * as an alias, an id or `inherit`). Imports the YAML reader, so it is loaded on first use.
 * Nothing here throws: every problem is a line, and a file whose frontmatter does not parse is
 * off (its tools could not be known, and guessing "all" would give it more than it asked).
 */
import * as l10n from '@vscode/l10n';
import { parseFrontmatter, stringList } from '../../../shared/frontmatter';
import type { CustomizationProblem } from '../../../contracts/customizations';
import { CHANGING_TOOL_NAMES, READ_ONLY_TOOL_NAMES } from '../../tools/core/builtins';
import type { AgentDefinition, AgentSourceFile, AgentTools, Handoff } from './agent';
import { mapToolNames, unmappedText } from './toolNames';

/** GitHub's limit on an agent's prompt; longer instructions are cut with a line saying so. */
export const MAX_INSTRUCTIONS = 30_000;

/** A custom agent as read, and why it cannot be used (a parse error), when it cannot. */
export type ParsedAgent = AgentDefinition & { readonly off?: string };

/** Fields documented by either format that have no effect here: kept, not reported. */
const KNOWN_EXTRA = [
  'target',
  'agents',
  'disable-model-invocation',
  'mcp-servers',
  'hooks',
  'infer',
  'permissionMode',
  'skills',
  'color',
  'mcpServers',
  'maxTurns',
  'memory',
];

/** The agent's name from its file name (`reviewer.agent.md` → `reviewer`). */
export function nameFromFile(fileName: string): string {
  return fileName.replace(/\.agent\.md$/i, '').replace(/\.md$/i, '');
}

export function parseAgentFile(
  text: string,
  source: AgentSourceFile,
  fileName: string,
  extraTools: ReadonlySet<string> = new Set(),
): ParsedAgent {
  const fm = parseFrontmatter(text);
  const a = fm.attributes;
  const problems: CustomizationProblem[] = fm.errors.map((e) => ({ line: e.line, message: e.message }));
  const str = (key: string): string | undefined => {
    const v = a[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string') return v.trim();
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    problems.push({ message: l10n.t('"{0}" should be text; it is ignored.', key) });
    return undefined;
  };
  let name = str('name') ?? '';
  if (!name) {
    if (source.format === 'claude' && !fm.errors.length)
      problems.push({ message: l10n.t('"name" is required in the Claude format; the file name is used.') });
    name = nameFromFile(fileName);
  }
  const tools = readTools(a, source.format, extraTools, problems);
  const models = readModels(a.model, problems);
  const handoffs = readHandoffs(a.handoffs, problems);
  const userInvocable = readBool(a['user-invocable'], 'user-invocable', problems) ?? a.infer !== false;
  let instructions = fm.body.trim();
  if (instructions.length > MAX_INSTRUCTIONS) {
    problems.push({
      message: l10n.t('The instructions are cut to {0} of {1} characters.', MAX_INSTRUCTIONS, instructions.length),
    });
    instructions = instructions.slice(0, MAX_INSTRUCTIONS);
  }
  const extra = Object.fromEntries(KNOWN_EXTRA.filter((k) => k in a).map((k) => [k, a[k]]));
  const argumentHint = str('argument-hint');
  return {
    id: name,
    name,
    builtin: false,
    description: str('description') ?? '',
    ...(argumentHint ? { argumentHint } : {}),
    tools,
    models,
    instructions,
    handoffs,
    userInvocable,
    ...(Object.keys(extra).length ? { extra } : {}),
    source,
    problems,
    ...(fm.errors.length ? { off: l10n.t('Its frontmatter does not parse.') } : {}),
  };
}

function readBool(v: unknown, key: string, problems: CustomizationProblem[]): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  problems.push({ message: l10n.t('"{0}" should be true or false; it is ignored.', key) });
  return undefined;
}

/**
 * `tools` (and Claude's `disallowedTools`) as our tool names. Absent: every tool (both formats
 * document that). Present but not a list: no tools, since what was meant cannot be known.
 */
function readTools(
  a: Readonly<Record<string, unknown>>,
  format: AgentSourceFile['format'],
  extra: ReadonlySet<string>,
  problems: CustomizationProblem[],
): AgentTools {
  const map = (key: string): string[] | undefined => {
    if (a[key] === undefined || a[key] === null) return undefined;
    const list = stringList(a[key]);
    if (!list) {
      problems.push({ message: l10n.t('"{0}" should be a list of tool names; no tools are given.', key) });
      return [];
    }
    const m = mapToolNames(list, extra);
    for (const u of m.unmapped) problems.push({ message: unmappedText(u) });
    for (const n of m.notes) problems.push({ message: n });
    return m.names;
  };
  const allowed = map('tools');
  const denied = format === 'claude' ? map('disallowedTools') : undefined;
  if (!denied?.length) return allowed ? { kind: 'names', names: allowed } : { kind: 'all' };
  const from = allowed ?? [...READ_ONLY_TOOL_NAMES, ...CHANGING_TOOL_NAMES, ...extra];
  return { kind: 'names', names: from.filter((n) => !denied.includes(n)) };
}

/** `model`: a name or an ordered list; Claude's `inherit` is the conversation's model. */
function readModels(v: unknown, problems: CustomizationProblem[]): string[] {
  if (v === undefined || v === null) return [];
  const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : undefined;
  const names = (list ?? []).filter((m): m is string => typeof m === 'string').map((m) => m.trim());
  if (!list || names.length !== list.length)
    problems.push({ message: l10n.t('"model" should be a model name or a list of names.') });
  return names.filter((m) => m !== '' && m.toLowerCase() !== 'inherit');
}

function readHandoffs(v: unknown, problems: CustomizationProblem[]): Handoff[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    problems.push({ message: l10n.t('"handoffs" should be a list; it is ignored.') });
    return [];
  }
  const out: Handoff[] = [];
  v.forEach((h: unknown, i) => {
    const o = typeof h === 'object' && h !== null ? (h as Record<string, unknown>) : {};
    const text = (k: string) => (typeof o[k] === 'string' ? o[k].trim() : '');
    const label = text('label');
    const agent = text('agent');
    if (!label || !agent) {
      problems.push({ message: l10n.t('Handoff {0} needs a "label" and an "agent"; it is left out.', i + 1) });
      return;
    }
    const model = text('model');
    out.push({ label, agent, prompt: text('prompt'), send: o.send === true, ...(model ? { model } : {}) });
  });
  return out;
}
