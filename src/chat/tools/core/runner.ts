import type { ImagePart, ToolCall, ToolChoice, ToolDefinition, ToolMessage } from '../../../api/chat/wire';
import { raceAbort, throwIfAborted, ToolRunStopped, type ToolExecutionContext, type ToolExecutor } from './seam';
import type { ToolCallValidator } from './validation';
import { ToolPathError } from './paths';
import { GUARD_WARNINGS, type GuardKind } from './protectedFiles';
import { cardFor, clip, noteHooks, type Card, type ToolCardUpdate } from './toolCard';
import { gateStep, type AfterVerdict, type GateCall, type ToolGate } from './toolGate';
import { notAllowedMessage } from './scope';

/**
 * The tool-call executor without VS Code: validation, approval, trust, execution and result
 * previews. The VS Code layer supplies the tools, the approver (panel cards or a modal) and the
 * trust store; tests supply plain-node ones. Calls of one turn run one after the other, in the
 * model's order, so the user decides on one proposed change at a time and two edits of the same
 * file never race.
 */

import type { ToolChoiceSetting, ToolDecision } from '../../../shared/protocol';
import { PREVIEW_FAILED_WARNING, type ApprovalRequest } from './approval';
import type { PreparedCall, Tool, ToolCallContext, ToolResult, TrustStore } from './tool';
export type { ApprovalRequest } from './approval';
export type { PreparedCall, Tool, ToolCallContext, ToolResult, TrustStore } from './tool';
export type { ToolCardUpdate };
export type { ToolChoiceSetting, ToolDecision } from '../../../shared/protocol';

/** Why a card warns: a reason the call asks every time, or a diff that could not be opened. */
export type CardWarning = GuardKind | 'previewFailed';
/**
 * Compiled validators by their set of definitions, the most recent last, shared by every runner
 * (a subagent run gets a runner of its own). A few, not one: a subagent's tools and an agent's
 * differ from the chat's, and a session alternating between them compiled each set again every
 * time (40-60 ms each: the slowest steps of the soak bench).
 */
const validators = new Map<string, ToolCallValidator>();
const VALIDATORS_KEPT = 4;
const CARD_WARNINGS: Record<CardWarning, string> = { ...GUARD_WARNINGS, previewFailed: PREVIEW_FAILED_WARNING };

/** A failure the model should read as the tool's result (not a crash of the tool). */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

export interface ToolRunnerOptions {
  /** The tools offered now (only enabled ones); read on every request so toggles apply at once. */
  tools: () => readonly Tool[];
  /** Asks the user; must settle (deny or reject) when `req.signal` aborts. */
  approve: (req: ApprovalRequest) => Promise<ToolDecision>;
  trust: TrustStore;
  onUpdate?: (u: ToolCardUpdate) => void;
  choice?: () => ToolChoiceSetting;
  /** Largest tool message sent to the model, in characters (default 40 000). */
  maxContentChars?: number;
  /** Largest card preview, in characters (default 4 000). */
  maxPreviewChars?: number;
  /** Where unexpected tool failures are reported (they still become tool messages). */
  onUnexpectedError?: (toolName: string, error: unknown) => void;
  /** `vscode.workspace.isTrusted` per call (default trusted): in Restricted Mode changing tools' trust is
   * ignored and "always allow" lasts for the conversation only. */
  workspaceTrusted?: () => boolean;
  /** The card's warning for a reason to ask (the host localises; default English). */
  warningText?: (kind: CardWarning) => string;
  /** The user's hooks and command rules around each call (./toolGate), read on every call. */
  gate?: () => ToolGate | undefined;
}

export const GATE_DENIED_MESSAGE = "This call was blocked by the user's hooks or command rules, so it was not run:";
export const DECLINED_MESSAGE =
  'The user declined this tool call, so it was not run. Do not try it again unless the user asks; continue without it or ask the user what to do instead.';

/** A validated, prepared call on its way through approval and running. */
interface AskedCall {
  callId: string;
  name: string;
  args: Record<string, unknown>;
  argumentsJson: string;
  tool: Tool;
  prepared: PreparedCall;
  /** What the hooks and command rules decided short of deny, and why; what runs after the call. */
  gated?: { decision?: 'allow' | 'ask'; reason?: string; after?: (result: string) => Promise<AfterVerdict> };
}

/** Implements the chat's {@link ToolExecutor} over a set of {@link Tool}s. */
export class ToolRunner implements ToolExecutor {
  /** "Always allow" given in an untrusted workspace: per conversation, in memory only. */
  private readonly conversationTrust = new Map<string, Set<string>>();

  constructor(private readonly opts: ToolRunnerOptions) {}

  definitions(): ToolDefinition[] {
    return this.opts.tools().map((t) => t.definition);
  }

  readOnlyDefinitions(): ToolDefinition[] {
    return this.opts
      .tools()
      .filter((t) => t.readOnly)
      .map((t) => t.definition);
  }

  /**
   * A forced tool applies to the first request after the user's message only: once its calls are
   * answered (`afterTools`) the next request is `auto`, otherwise the model would be made to call
   * the tool again and again until the round limit. A pure read: the meter may ask any time.
   */
  toolChoice(o: { afterTools?: boolean } = {}): ToolChoice | undefined {
    const c = this.opts.choice?.() ?? 'auto';
    if (c === 'auto') return undefined;
    if (c === 'none') return 'none';
    // A forced tool that is no longer enabled would make the gateway reject the request.
    if (o.afterTools || !this.opts.tools().some((t) => t.definition.function.name === c.name)) return undefined;
    return { type: 'function', function: { name: c.name } };
  }

  async execute(calls: ToolCall[], ctx: ToolExecutionContext): Promise<ToolMessage[]> {
    const tools = this.opts.tools();
    const validator = await this.validatorFor(tools);
    const out: ToolMessage[] = [];
    for (const call of calls) {
      try {
        throwIfAborted(ctx.signal);
        out.push(await this.one(call, tools, validator, ctx));
      } catch (e) {
        if (ctx.signal.aborted) throw new ToolRunStopped(out);
        throw e;
      }
    }
    return out;
  }

  private async one(
    call: ToolCall,
    tools: readonly Tool[],
    validator: ToolCallValidator,
    ctx: ToolExecutionContext,
  ): Promise<ToolMessage> {
    const known = tools.find((t) => t.definition.function.name === call.function.name);
    const card = cardFor(this.opts.onUpdate, call, ctx.conversationId, known);
    // Outside the turn's tools (./scope): refused before anything else, never asked or run.
    if (known && ctx.allowed && !ctx.allowed(known.definition.function.name, known.readOnly)) {
      const text = notAllowedMessage(call.function.name, ctx.allowedFor ?? 'this agent');
      card.post('denied', known.readOnly, text);
      return { role: 'tool', tool_call_id: call.id, content: text };
    }
    const checked = validator.check(call);
    if (!checked.ok) {
      card.post('error', known?.readOnly ?? false, checked.detail);
      return checked.message;
    }
    const tool = tools.find((t) => t.definition.function.name === checked.name);
    if (!tool) throw new Error(`validated tool ${checked.name} vanished`);
    const gate = this.opts.gate?.();
    const gateCall: GateCall = {
      ...ctx,
      name: checked.name,
      args: checked.args,
      callId: call.id,
      readOnly: tool.readOnly,
    };
    const step = await gateStep(gate, gateCall, validator);
    throwIfAborted(ctx.signal);
    noteHooks(card, step.notes);
    const argumentsJson = JSON.stringify(step.kind === 'go' ? step.args : checked.args, null, 2);
    const answer = (content: string, images?: ImagePart[]): ToolMessage => ({
      ...{ role: 'tool', tool_call_id: call.id, content },
      ...(images?.length ? { images } : {}),
    });
    if (step.kind === 'deny') {
      card.post('denied', tool.readOnly, step.reason, argumentsJson);
      return answer(`${GATE_DENIED_MESSAGE} ${step.reason}`);
    }
    const callCtx: ToolCallContext = { ...ctx, callId: call.id };

    let prepared: PreparedCall;
    try {
      prepared = await tool.prepare(step.args, callCtx);
    } catch (e) {
      throwIfAborted(ctx.signal);
      const text = this.failureText(tool, e);
      card.post('error', tool.readOnly, text, argumentsJson);
      return answer(text);
    }
    try {
      const call2: AskedCall = {
        callId: call.id,
        name: checked.name,
        args: step.args,
        argumentsJson,
        tool,
        prepared,
        gated: {
          ...step,
          ...(gate ? { after: (result) => gate.after({ ...gateCall, args: step.args, result }) } : {}),
        },
      };
      if (!(await this.allowed(call2, card, ctx))) return answer(DECLINED_MESSAGE);
      const { text, images } = await this.runAllowed(call2, card, callCtx);
      return answer(step.context ? `${text}\n\n${step.context}` : text, images);
    } finally {
      prepared.dispose?.();
    }
  }

  /** Puts the call's warnings on its card and asks the user unless trust covers it; false when denied. */
  private async allowed(c: AskedCall, card: Card, ctx: ToolExecutionContext): Promise<boolean> {
    const { tool, prepared } = c;
    if (tool.asksUser) return true;
    const { key: trustKey, store } = prepared.trust ?? { key: tool.trustKey ?? c.name, store: this.opts.trust };
    const untrusted = !(this.opts.workspaceTrusted?.() ?? true);
    const kinds = [...(prepared.guard ? [prepared.guard] : []), ...(untrusted ? ['untrustedWorkspace' as const] : [])];
    const warningText = this.opts.warningText ?? ((k: CardWarning) => CARD_WARNINGS[k]);
    const forced = c.gated?.decision === 'ask';
    const notes = [prepared.note, forced ? c.gated?.reason : undefined].filter((n): n is string => !!n);
    const warning = [...kinds.map(warningText), ...notes].join('\n');
    const askEveryTime = prepared.guard !== undefined || forced;
    card.caution = { ...card.caution, ...(warning ? { warning } : {}), ...(askEveryTime ? { askEveryTime } : {}) };
    // A policy's allow stands in for the user's trust, never for a guard's ask or Restricted Mode's.
    const allowed = c.gated?.decision === 'allow' && (tool.readOnly || !untrusted);
    if (!askEveryTime && (allowed || this.trusted(tool, trustKey, ctx.conversationId, untrusted, store))) return true;
    const decision = await this.ask(c, card, ctx, untrusted, warningText);
    if (decision === 'deny') {
      card.post('denied', tool.readOnly, undefined, c.argumentsJson);
      return false;
    }
    // "Always allow" from a card is honoured for read-only tools only: trusting a tool that changes
    // files or runs commands needs the explicit step in Manage Tools. A call that asks every time
    // (a secret file) never turns into trust: the next secret would go unasked.
    if (decision === 'alwaysAllow' && tool.readOnly && !askEveryTime) {
      if (untrusted) this.trustForConversation(ctx.conversationId, trustKey);
      else await store.trust(trustKey);
    }
    return true;
  }

  /** Shows the card awaiting approval (and the diff), and waits for the user's decision or Stop. */
  private async ask(
    c: AskedCall,
    card: Card,
    ctx: ToolExecutionContext,
    untrusted: boolean,
    warningText: (kind: CardWarning) => string,
  ): Promise<ToolDecision> {
    const { tool, prepared, argumentsJson } = c;
    // No preview yet: the card's preview area reads as the result, and nothing has run.
    card.post('awaiting-approval', tool.readOnly, undefined, argumentsJson);
    // Asked before the diff opens: the card's buttons work at once, and a click made while the diff
    // is still opening must find the approver listening. The approver gets the opening as `shown`,
    // since the diff may hide the chat and it then asks elsewhere. A diff that fails to open is
    // said on the card (the user was about to look for it there).
    const shown = prepared.show
      ? prepared.show().then(
          () => undefined,
          () => warningText('previewFailed'),
        )
      : undefined;
    const asked = this.opts.approve({
      conversationId: ctx.conversationId,
      callId: c.callId,
      name: c.name,
      args: c.args,
      argumentsJson,
      readOnly: tool.readOnly,
      ...(tool.preview ? { preview: tool.preview } : {}),
      ...(prepared.summary !== undefined ? { summary: prepared.summary } : {}),
      ...card.caution,
      ...(untrusted ? { untrustedWorkspace: true } : {}),
      ...(shown ? { shown } : {}),
      signal: ctx.signal,
    });
    void asked.catch(() => undefined); // handled below, after the diff
    const previewFailed = await shown;
    if (previewFailed) {
      card.caution = { ...card.caution, warning: [card.caution.warning, previewFailed].filter(Boolean).join('\n') };
      card.post('awaiting-approval', tool.readOnly, undefined, argumentsJson);
    }
    return raceAbort(asked, ctx.signal).catch((e: unknown) => {
      if (ctx.signal.aborted) card.post('denied', tool.readOnly, 'Stopped before it ran.', argumentsJson);
      throw e;
    });
  }

  /** Runs an allowed call: its result, clipped, or the failure the model reads instead. */
  private async runAllowed(
    c: AskedCall,
    card: Card,
    ctx: ToolCallContext,
  ): Promise<{ text: string; images?: ImagePart[] }> {
    const { tool, argumentsJson } = c;
    throwIfAborted(ctx.signal);
    card.post('running', tool.readOnly, undefined, argumentsJson);
    let result: ToolResult;
    try {
      result = await c.prepared.run(ctx);
    } catch (e) {
      if (ctx.signal.aborted) {
        card.post('error', tool.readOnly, 'Stopped while running.', argumentsJson);
        throw e;
      }
      const text = this.failureText(tool, e);
      card.post('error', tool.readOnly, text, argumentsJson);
      return { text };
    }
    const content = clip(result.content, this.opts.maxContentChars ?? 40_000, 'the result');
    // PostToolUse: after a call that succeeded, before its card says done.
    const post = (await c.gated?.after?.(content)) ?? {};
    noteHooks(card, post.notes);
    const preview = clip(result.preview ?? result.content, this.opts.maxPreviewChars ?? 4_000, 'the preview');
    card.post('done', tool.readOnly, preview, argumentsJson);
    return { text: post.feedback ? `${content}\n\n${post.feedback}` : content, images: result.images };
  }

  /**
   * Whether `name` may run without asking. In Restricted Mode the stored trust of a tool that
   * changes things is ignored (a hostile folder's tasks could otherwise ride on it); trust returns
   * by itself once the user trusts the workspace, since this is read on every call.
   */
  private trusted(tool: Tool, name: string, id: string, untrusted: boolean, store: TrustStore): boolean {
    if (this.conversationTrust.get(id)?.has(name)) return true;
    if (untrusted && !tool.readOnly) return false;
    return store.isTrusted(name);
  }

  private trustForConversation(conversationId: string, name: string): void {
    const set = this.conversationTrust.get(conversationId) ?? new Set<string>();
    set.add(name);
    this.conversationTrust.set(conversationId, set);
  }

  private failureText(tool: Tool, e: unknown): string {
    if (e instanceof ToolError || e instanceof ToolPathError) return `Error: ${e.message}`;
    this.opts.onUnexpectedError?.(tool.definition.function.name, e);
    const msg = e instanceof Error ? e.message : String(e);
    return `Error: the tool ${tool.definition.function.name} failed: ${msg}`;
  }

  private async validatorFor(tools: readonly Tool[]): Promise<ToolCallValidator> {
    // Schemas compile once per set of definitions, not once per turn.
    const defs = tools.map((t) => t.definition);
    const key = JSON.stringify(defs);
    let validator = validators.get(key);
    if (!validator) {
      // ajv is a third of the tools' code and only a model's first call needs it: its own chunk.
      const { ToolCallValidator } = await import('./validation');
      validator = new ToolCallValidator(defs);
    }
    validators.delete(key);
    validators.set(key, validator);
    if (validators.size > VALIDATORS_KEPT) validators.delete(validators.keys().next().value ?? '');
    return validator;
  }
}
