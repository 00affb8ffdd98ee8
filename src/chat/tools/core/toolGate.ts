/**
 * The user's policies around a tool call (hooks, command rules: `src/chat/hooks`), as the runner
 * sees them: before a call they may deny it (its reason goes to the card and the model), force the
 * approval card (`ask`), let it run without asking (`allow`), or rewrite its arguments; after it
 * they may add words for the model. Injected at the chat's composition point, so the runner knows
 * no hook or rule.
 *
 * A rewrite never widens what a call may do: the new arguments are validated like the model's,
 * prepared again by the tool, and asked for as a new call would be (a rewrite's `allow` is not
 * honoured).
 */
import type { ToolCall } from '../../../api/chat/wire';
import type { ToolCallValidator } from './validation';

export interface GateCall {
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly callId: string;
  readonly conversationId: string;
  readonly readOnly: boolean;
  readonly signal: AbortSignal;
}

export interface GateVerdict {
  decision?: 'allow' | 'ask' | 'deny';
  /** Why (shown on the card; for deny also to the model). */
  reason?: string;
  /** Arguments to use instead of the model's. */
  updatedArgs?: Record<string, unknown>;
  /** What the hooks printed and how they ended, for the card. */
  notes?: string;
  /** Added to the result the model reads. */
  context?: string;
}

export interface AfterVerdict {
  notes?: string;
  /** Added to the result the model reads (a PostToolUse block's reason, additional context). */
  feedback?: string;
}

export interface ToolGate {
  before(call: GateCall): Promise<GateVerdict>;
  after(call: GateCall & { result: string }): Promise<AfterVerdict>;
}

const RANK = { allow: 1, ask: 2, deny: 3 } as const;

/** The stricter of two decisions (deny over ask over allow). */
export function stricter(a: GateVerdict['decision'], b: GateVerdict['decision']): GateVerdict['decision'] {
  if (!a) return b;
  if (!b) return a;
  return RANK[a] >= RANK[b] ? a : b;
}

const join = (...parts: (string | undefined)[]) =>
  parts.filter((p) => p !== undefined && p !== '').join('\n\n') || undefined;

/**
 * Gates run in order, each on the arguments the one before left (so command rules judge the
 * command a hook rewrote); the strictest decision wins and a deny ends the walk.
 */
export function chainGates(gates: readonly ToolGate[]): ToolGate {
  return {
    async before(call) {
      let args = call.args;
      let out: GateVerdict = {};
      for (const g of gates) {
        const v = await g.before({ ...call, args });
        const decision = stricter(out.decision, v.decision);
        const reason = decision === v.decision && v.reason ? v.reason : out.reason;
        out = {
          ...(decision ? { decision } : {}),
          ...(reason ? { reason } : {}),
          ...((v.updatedArgs ?? out.updatedArgs) ? { updatedArgs: v.updatedArgs ?? out.updatedArgs } : {}),
          ...(join(out.notes, v.notes) ? { notes: join(out.notes, v.notes) } : {}),
          ...(join(out.context, v.context) ? { context: join(out.context, v.context) } : {}),
        };
        if (v.updatedArgs) args = v.updatedArgs;
        if (decision === 'deny') break;
      }
      return out;
    },
    async after(call) {
      const all = await Promise.all(gates.map((g) => g.after(call)));
      const notes = join(...all.map((a) => a.notes));
      const feedback = join(...all.map((a) => a.feedback));
      return { ...(notes ? { notes } : {}), ...(feedback ? { feedback } : {}) };
    },
  };
}

/** What the runner does with a call after its gate. */
export type GateStep =
  | { kind: 'deny'; reason: string; notes?: string }
  | {
      kind: 'go';
      args: Record<string, unknown>;
      decision?: 'allow' | 'ask';
      reason?: string;
      notes?: string;
      context?: string;
    };

/**
 * Asks the gate about a validated call. A rewrite is validated as the model's call was; one that
 * fails is ignored (as VS Code does) and said on the card, and a rewritten call drops `allow`.
 */
export async function gateStep(
  gate: ToolGate | undefined,
  call: GateCall,
  validator: ToolCallValidator,
): Promise<GateStep> {
  if (!gate) return { kind: 'go', args: call.args };
  const v = await gate.before(call);
  let notes = v.notes;
  if (v.decision === 'deny')
    return {
      kind: 'deny',
      reason: v.reason ?? 'A hook or command rule denied this call.',
      ...(notes ? { notes } : {}),
    };
  let args = call.args;
  let decision = v.decision;
  if (v.updatedArgs) {
    const rewritten: ToolCall = {
      id: call.callId,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(v.updatedArgs) },
    };
    const checked = validator.check(rewritten);
    if (checked.ok) {
      args = checked.args;
      if (decision === 'allow') decision = undefined;
      notes = join(notes, 'The hook rewrote the arguments: the call shows and asks with the new ones.');
    } else notes = join(notes, `The hook's new arguments were ignored: ${checked.detail}`);
  }
  return {
    kind: 'go',
    args,
    ...(decision ? { decision } : {}),
    ...(v.reason ? { reason: v.reason } : {}),
    ...(notes ? { notes } : {}),
    ...(v.context ? { context: v.context } : {}),
  };
}
