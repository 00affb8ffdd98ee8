/**
 * What a finished hook said, by the shared contract (Claude Code's hooks reference, VS Code's
 * hooks.md): exit 0 and JSON on stdout (`decision`/`reason`, `continue`/`stopReason`,
 * `systemMessage`, `hookSpecificOutput` with PreToolUse's `permissionDecision`,
 * `permissionDecisionReason`, `updatedInput` and any event's `additionalContext`); exit 2 blocks
 * with stderr as the reason; any other exit is an error shown to the user that blocks nothing.
 * On UserPromptSubmit and SessionStart, plain stdout of exit 0 is context for the model.
 */
import { clip } from '../../tools/core/toolCard';
import type { HookCommand, HookEventName } from './hookFile';
import type { HookProcessResult } from './hookProcess';

/** Longest hook text shown on a card or given to the model (the process kept up to 64 KB). */
export const MAX_HOOK_TEXT_CHARS = 4000;

export type HookDecision = 'allow' | 'ask' | 'deny';

export interface HookOutcome {
  readonly event: HookEventName;
  readonly command: string;
  /** PreToolUse: allow, ask or deny; other events: `deny` means block (the prompt, stopping). */
  readonly decision?: HookDecision;
  readonly reason?: string;
  /** PreToolUse's replacement input, as the hook wrote it (its file's tool fields). */
  readonly updatedInput?: Record<string, unknown>;
  /** For the model: `additionalContext`, or the plain stdout of UserPromptSubmit and SessionStart. */
  readonly context?: string;
  /** For the user: `systemMessage`, a failed or timed-out hook, stderr of a non-blocking error. */
  readonly warning?: string;
  /** One paragraph for the card: the command, how it ended, what it printed. */
  readonly note: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const cut = (s: string) => clip(s, MAX_HOOK_TEXT_CHARS, 'the hook output');

/** How the process ended, in words, with what it printed (for the card). */
function noteOf(cmd: HookCommand, r: HookProcessResult): string {
  const secs = (r.durationMs / 1000).toFixed(1);
  const how =
    r.spawnError !== undefined
      ? `could not start: ${r.spawnError}`
      : r.timedOut
        ? `stopped after its ${cmd.timeoutSec} s timeout; ${cmd.onTimeout === 'block' ? 'the call was blocked (onTimeout: block)' : 'the call went on (onTimeout: continue)'}`
        : r.aborted
          ? 'stopped with the turn'
          : `exit ${r.exitCode ?? 'killed'} (${secs} s)`;
  const lines = [`${cmd.event} hook \`${cmd.command}\`: ${how}`];
  if (r.stdout.trim()) lines.push(`stdout: ${cut(r.stdout.trim())}`);
  if (r.stderr.trim()) lines.push(`stderr: ${cut(r.stderr.trim())}`);
  if (r.truncated) lines.push(`[output cut: ${r.totalBytes} bytes printed, the first 64 KB of each stream kept]`);
  return lines.join('\n');
}

/** The JSON a hook printed, when stdout is one object. */
function stdoutJson(stdout: string): Record<string, unknown> | undefined {
  const t = stdout.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    return isRecord(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** A PreToolUse decision from `permissionDecision`, or the older top-level `approve` / `block`. */
function preToolDecision(json: Record<string, unknown>, specific: Record<string, unknown>): HookDecision | undefined {
  const d = specific['permissionDecision'];
  if (d === 'allow' || d === 'ask' || d === 'deny') return d;
  if (json['decision'] === 'approve') return 'allow';
  if (json['decision'] === 'block') return 'deny';
  return undefined;
}

/** Reads a finished hook by its event's rules. */
export function hookOutcome(cmd: HookCommand, r: HookProcessResult): HookOutcome {
  const base = { event: cmd.event, command: cmd.command, note: noteOf(cmd, r) };
  if (r.spawnError !== undefined) return { ...base, warning: base.note };
  if (r.aborted) return base;
  if (r.timedOut) {
    const reason = `The hook \`${cmd.command}\` did not answer within ${cmd.timeoutSec} s.`;
    return cmd.onTimeout === 'block' ? { ...base, decision: 'deny', reason } : { ...base, warning: base.note };
  }
  if (r.exitCode === 2)
    return {
      ...base,
      decision: 'deny',
      reason: cut(text(r.stderr) ?? `The hook \`${cmd.command}\` exited with code 2.`),
    };
  if (r.exitCode !== 0) return { ...base, warning: base.note };
  const json = stdoutJson(r.stdout);
  if (!json) {
    const plain = text(r.stdout);
    const takesText = cmd.event === 'UserPromptSubmit' || cmd.event === 'SessionStart';
    return takesText && plain !== undefined ? { ...base, context: cut(plain) } : base;
  }
  const specific = isRecord(json['hookSpecificOutput']) ? json['hookSpecificOutput'] : {};
  const warning = text(json['systemMessage']);
  const context = text(specific['additionalContext']);
  const out: {
    decision?: HookDecision;
    reason?: string;
    updatedInput?: Record<string, unknown>;
  } = {};
  if (cmd.event === 'PreToolUse') {
    const d = preToolDecision(json, specific);
    if (d) out.decision = d;
    const why = text(specific['permissionDecisionReason']) ?? text(json['reason']);
    if (why) out.reason = cut(why);
    if (isRecord(specific['updatedInput'])) out.updatedInput = specific['updatedInput'];
  } else if (json['decision'] === 'block' || specific['decision'] === 'block') {
    // At Stop, block means "do not stop yet": the reason is the model's next instruction.
    out.decision = 'deny';
    out.reason = cut(text(json['reason']) ?? text(specific['reason']) ?? `The hook \`${cmd.command}\` blocked.`);
  }
  // `continue: false` stops the agent in the other tools; here it blocks what the event is about
  // (the call, the prompt), the most restrictive reading that never runs anything more. At Stop
  // it means what stopping already does.
  if (json['continue'] === false && cmd.event !== 'Stop') {
    out.decision = 'deny';
    out.reason = cut(text(json['stopReason']) ?? out.reason ?? `The hook \`${cmd.command}\` asked to stop.`);
  }
  return {
    ...base,
    ...out,
    ...(context ? { context: cut(context) } : {}),
    ...(warning ? { warning: cut(warning) } : {}),
  };
}

const RANK: Record<HookDecision, number> = { allow: 1, ask: 2, deny: 3 };

/** The most restrictive of several hooks' decisions (deny, then ask, then allow), with its outcome. */
export function strictest(outcomes: readonly HookOutcome[]): HookOutcome | undefined {
  let best: HookOutcome | undefined;
  for (const o of outcomes) {
    if (o.decision && (!best?.decision || RANK[o.decision] > RANK[best.decision])) best = o;
  }
  return best;
}
