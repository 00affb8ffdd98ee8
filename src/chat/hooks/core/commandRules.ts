/**
 * Command rules for run_command: patterns the user keeps in their settings (allow `npm test`, ask
 * `git push *`, deny `rm -rf *`), matched against every command of a line (./commandSplit). A
 * line is denied when any command is denied, asks when any asks, and runs without asking only when
 * every command is allowed: deny wins over ask over allow, whatever the order. A workspace may add
 * ask and deny rules, never allow ones (they are dropped, and the list says so).
 *
 * Patterns: `*` is any text (across `/` and spaces: a command is not a path, which is why
 * tools/core/glob.ts is not used here), everything else is literal and case-sensitive, runs of
 * spaces are one; a trailing ` *` or Claude Code's `:*` also matches the bare command (`git push
 * *` matches `git push`). Deny and ask rules also see the command without leading `VAR=value`
 * assignments and wrappers (`sudo`, `env`, `nice`, `nohup`, `time`, `command`, `exec`), so
 * `FOO=1 sudo rm -rf /` is still `rm -rf /`; allow rules never do (`PATH=./x npm test` is not
 * `npm test`). A command that writes a file by redirection is never allowed by a rule.
 */
import type { CustomizationProblem } from '../../../contracts/customizations';
import type { AfterVerdict, GateCall, GateVerdict, ToolGate } from '../../tools/core/toolGate';
import { splitCommandLine, type CommandPart } from './commandSplit';

export type CommandAction = 'allow' | 'ask' | 'deny';

export interface CommandRule {
  readonly pattern: string;
  readonly action: CommandAction;
  readonly scope: 'user' | 'workspace';
}

export interface CommandVerdict {
  decision?: CommandAction;
  /** The rule that decided and the command it matched (absent when no rule decided). */
  rule?: CommandRule;
  part?: string;
}

const ACTIONS: readonly CommandAction[] = ['allow', 'ask', 'deny'];

/** Reads a setting's value (a list of `{pattern, action}`); `scope: 'workspace'` keeps ask and deny only. */
export function readCommandRules(
  value: unknown,
  scope: CommandRule['scope'],
  where: string,
): { rules: CommandRule[]; problems: CustomizationProblem[] } {
  const rules: CommandRule[] = [];
  const problems: CustomizationProblem[] = [];
  if (value === undefined || value === null) return { rules, problems };
  if (!Array.isArray(value)) return { rules, problems: [{ message: `${where} is not a list of rules.` }] };
  value.forEach((v: unknown, i) => {
    const r = v as { pattern?: unknown; action?: unknown } | null;
    const pattern = typeof r?.pattern === 'string' ? r.pattern.trim() : '';
    const action = ACTIONS.find((a) => a === r?.action);
    if (pattern === '' || !action) {
      problems.push({ message: `${where}[${i}] needs a "pattern" and an "action" of allow, ask or deny.` });
      return;
    }
    if (scope === 'workspace' && action === 'allow') {
      problems.push({
        message: `${where}[${i}] "${pattern}": a workspace may add ask and deny rules only; this allow rule is ignored.`,
      });
      return;
    }
    rules.push({ pattern, action, scope });
  });
  return { rules, problems };
}

/** Whether `pattern` matches all of `text` (`*` any text; a trailing ` *` or `:*` also the bare command). */
export function patternMatches(pattern: string, text: string): boolean {
  const p = pattern.trim().replace(/\s+/g, ' ').replace(/:\*$/, ' *');
  if (p.endsWith(' *') && wildcard(p.slice(0, -2), text)) return true;
  return wildcard(p, text);
}

/** Wildcard match with one backtrack point: linear in practice, never exponential. */
function wildcard(p: string, s: string): boolean {
  let pi = 0;
  let si = 0;
  let star = -1;
  let mark = 0;
  while (si < s.length) {
    if (pi < p.length && p[pi] !== '*' && p[pi] === s[si]) {
      pi++;
      si++;
    } else if (pi < p.length && p[pi] === '*') {
      star = pi++;
      mark = si;
    } else if (star >= 0) {
      pi = star + 1;
      si = ++mark;
    } else return false;
  }
  while (p[pi] === '*') pi++;
  return pi === p.length;
}

const KEYWORDS = /^(?:(?:if|then|else|elif|do|while|until|!|\{|\}|time)\s+)+/;
const PREFIX = /^(?:(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S*)|sudo|env|nice|nohup|time|command|exec)\s+)+/;

/** What one command is matched as: for allow, itself; for ask and deny, also without its prefixes. */
function forms(part: CommandPart): { allow: string; strict: string[] } {
  const bare = part.text.replace(KEYWORDS, '');
  const stripped = bare.replace(PREFIX, '');
  return { allow: bare, strict: stripped === bare ? [bare] : [bare, stripped] };
}

/** The verdict for a whole command line. */
export function commandVerdict(line: string, rules: readonly CommandRule[]): CommandVerdict {
  const usable = rules.filter((r) => !(r.scope === 'workspace' && r.action === 'allow'));
  const split = splitCommandLine(line);
  const find = (action: CommandAction): CommandVerdict | undefined => {
    for (const part of split.parts) {
      const f = forms(part);
      for (const rule of usable) {
        if (rule.action === action && f.strict.some((t) => patternMatches(rule.pattern, t)))
          return { decision: action, rule, part: part.text };
      }
    }
    return undefined;
  };
  const strict = find('deny') ?? find('ask');
  if (strict) return strict;
  if (!split.complete || split.parts.length === 0) return {};
  let first: CommandVerdict | undefined;
  for (const part of split.parts) {
    const rule = part.writesFile
      ? undefined
      : usable.find((r) => r.action === 'allow' && patternMatches(r.pattern, forms(part).allow));
    if (!rule) return {};
    first ??= { decision: 'allow', rule, part: part.text };
  }
  return first ?? {};
}

/** The rules as the tool runner's gate: they judge run_command's `command`, nothing else. */
export function commandRulesGate(rules: () => readonly CommandRule[]): ToolGate {
  return {
    before(call: GateCall): Promise<GateVerdict> {
      const command = call.args['command'];
      if (call.name !== 'run_command' || typeof command !== 'string') return Promise.resolve({});
      const v = commandVerdict(command, rules());
      if (!v.decision || !v.rule) return Promise.resolve({});
      const who = v.rule.scope === 'workspace' ? "the workspace's" : 'your';
      const reason = `\`${v.part ?? command}\` matches ${who} command rule "${v.rule.action} ${v.rule.pattern}".`;
      return Promise.resolve({ decision: v.decision, reason, notes: `Command rules: ${reason}` });
    },
    after: (): Promise<AfterVerdict> => Promise.resolve({}),
  };
}
