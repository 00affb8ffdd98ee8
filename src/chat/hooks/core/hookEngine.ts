/**
 * Runs the hooks that apply to an event and says what they decided: as the tool runner's gate
 * (PreToolUse, PostToolUse) and as the session's hooks (SessionStart, UserPromptSubmit,
 * PreCompact, Stop). Which files may run is decided before (./hookTrust, by the VS Code side);
 * here every source given runs. Hooks of one event run at once, as in Claude Code; the strictest
 * decision wins. A workspace hook's `allow` never skips the user's approval: only the user's own
 * hooks may stand in for it.
 */
import * as path from 'node:path';
import type { AfterVerdict, GateCall, GateVerdict, ToolGate } from '../../tools/core/toolGate';
import type { HookReport, SessionHooks } from '../../session/core/sessionDeps';
import type { HookCommand, HookEventName, HookFlavor } from './hookFile';
import { hookOutcome, strictest, type HookOutcome } from './hookOutcome';
import { runHookProcess } from './hookProcess';
import { matches } from './matcher';
import { fromClaudeInput, hookToolName, matchNames, toClaudeInput } from './toolNames';

/** One hook file allowed to run now. */
export interface HookSource {
  readonly path: string;
  readonly scope: 'workspace' | 'user';
  readonly flavor: HookFlavor;
  readonly commands: readonly HookCommand[];
  /** The folder its hooks run in (a workspace file's own folder); default the engine's root. */
  readonly root?: string;
}

export interface HookEngineOptions {
  /** The hook files that may run now, asked at every event (a changed file is read again). */
  sources(): Promise<readonly HookSource[]>;
  /** The workspace folder hooks run in. */
  root(): string;
  run?: typeof runHookProcess;
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
}

type Ran = HookOutcome & { readonly scope: HookSource['scope']; readonly flavor: HookFlavor };

const join = (parts: readonly (string | undefined)[]) => parts.filter(Boolean).join('\n\n') || undefined;

export class HookEngine implements ToolGate, SessionHooks {
  constructor(private readonly o: HookEngineOptions) {}

  /** Runs every command of `event` whose matcher selects `names` (undefined: matchers ignored). */
  async fire(
    event: HookEventName,
    fields: (flavor: HookFlavor) => Record<string, unknown>,
    names: readonly string[] | undefined,
    conversationId: string,
    signal: AbortSignal,
  ): Promise<Ran[]> {
    const todo: Promise<Ran>[] = [];
    for (const src of await this.o.sources()) {
      const root = src.root ?? this.o.root();
      for (const cmd of src.commands) {
        if (cmd.event !== event || (names && !matches(cmd.matcher, names))) continue;
        const stdin = JSON.stringify({ ...this.common(event, conversationId, root), ...fields(src.flavor) });
        todo.push(this.runOne(cmd, stdin, root, signal).then((o) => ({ ...o, scope: src.scope, flavor: src.flavor })));
      }
    }
    return Promise.all(todo);
  }

  /** The fields every event carries, under Claude Code's names and VS Code's. */
  private common(event: HookEventName, conversationId: string, root: string): Record<string, unknown> {
    return {
      session_id: conversationId,
      sessionId: conversationId,
      transcript_path: '',
      cwd: root,
      hook_event_name: event,
      hookEventName: event,
      permission_mode: 'default',
      timestamp: (this.o.now?.() ?? new Date()).toISOString(),
    };
  }

  private async runOne(cmd: HookCommand, stdin: string, root: string, signal: AbortSignal): Promise<HookOutcome> {
    const cwd = cmd.cwd === undefined ? root : path.resolve(root, cmd.cwd);
    const rel = path.relative(root, cwd);
    if (rel.startsWith('..') || path.isAbsolute(rel)) {
      const note = `${cmd.event} hook \`${cmd.command}\`: not run, its cwd "${cmd.cwd}" is outside the workspace folder.`;
      return { event: cmd.event, command: cmd.command, note, warning: note };
    }
    const env = { ...(this.o.env ?? process.env), ...cmd.env, CLAUDE_PROJECT_DIR: root };
    const r = await (this.o.run ?? runHookProcess)(cmd.command, {
      cwd,
      stdin,
      env,
      timeoutMs: cmd.timeoutSec * 1000,
      signal,
    });
    return hookOutcome(cmd, r);
  }

  private toolFields(call: GateCall, extra: Record<string, unknown> = {}): (f: HookFlavor) => Record<string, unknown> {
    const root = this.o.root();
    return (flavor) => ({
      tool_name: hookToolName(call.name, flavor),
      tool_input: flavor === 'claude' ? toClaudeInput(call.name, call.args, root) : call.args,
      tool_use_id: call.callId,
      ...extra,
    });
  }

  async before(call: GateCall): Promise<GateVerdict> {
    const ran = await this.fire(
      'PreToolUse',
      this.toolFields(call),
      matchNames(call.name),
      call.conversationId,
      call.signal,
    );
    // A workspace file's allow is advice: the user's approval still applies.
    const counted = ran.map((r) =>
      r.decision === 'allow' && r.scope === 'workspace' ? { ...r, decision: undefined } : r,
    );
    const top = strictest(counted);
    const rewrite = ran.find((r) => r.updatedInput);
    const notes = join(ran.map((r) => r.note));
    const context = join(ran.map((r) => r.context));
    return {
      ...(top?.decision ? { decision: top.decision } : {}),
      ...(top?.reason ? { reason: top.reason } : {}),
      ...(rewrite?.updatedInput
        ? {
            updatedArgs:
              rewrite.flavor === 'claude' ? fromClaudeInput(call.name, rewrite.updatedInput) : rewrite.updatedInput,
          }
        : {}),
      ...(notes ? { notes } : {}),
      ...(context ? { context } : {}),
    };
  }

  async after(call: GateCall & { result: string }): Promise<AfterVerdict> {
    const fields = this.toolFields(call, { tool_response: call.result });
    const ran = await this.fire('PostToolUse', fields, matchNames(call.name), call.conversationId, call.signal);
    const feedback = join([
      ...ran.map((r) => (r.decision === 'deny' ? `PostToolUse hook: ${r.reason ?? ''}` : undefined)),
      ...ran.map((r) => r.context),
    ]);
    const notes = join(ran.map((r) => r.note));
    return { ...(notes ? { notes } : {}), ...(feedback ? { feedback } : {}) };
  }

  async promptSubmitted(e: {
    conversationId: string;
    prompt: string;
    first: boolean;
    signal: AbortSignal;
  }): Promise<HookReport & { blocked?: string; context?: string }> {
    const started = e.first
      ? await this.fire(
          'SessionStart',
          (f) => ({ source: f === 'claude' ? 'startup' : 'new' }),
          ['startup', 'new'],
          e.conversationId,
          e.signal,
        )
      : [];
    const submitted = await this.fire(
      'UserPromptSubmit',
      () => ({ prompt: e.prompt }),
      undefined,
      e.conversationId,
      e.signal,
    );
    const all = [...started, ...submitted];
    // SessionStart cannot block (its exit 2 is shown to the user); UserPromptSubmit can.
    const block = strictest(submitted.filter((r) => r.decision === 'deny'));
    const context = join(all.map((r) => r.context));
    return {
      ...report(all),
      ...(block ? { blocked: block.reason ?? 'A UserPromptSubmit hook blocked this message.' } : {}),
      ...(context ? { context } : {}),
    };
  }

  async beforeCompact(e: {
    conversationId: string;
    trigger: 'manual' | 'auto';
    signal: AbortSignal;
  }): Promise<HookReport> {
    const ran = await this.fire(
      'PreCompact',
      () => ({ trigger: e.trigger, custom_instructions: '' }),
      [e.trigger],
      e.conversationId,
      e.signal,
    );
    return report(ran);
  }

  async turnStopped(e: {
    conversationId: string;
    stopHookActive: boolean;
    signal: AbortSignal;
  }): Promise<HookReport & { continueWith?: string }> {
    const ran = await this.fire(
      'Stop',
      () => ({ stop_hook_active: e.stopHookActive }),
      undefined,
      e.conversationId,
      e.signal,
    );
    const block = strictest(ran.filter((r) => r.decision === 'deny'));
    return { ...report(ran), ...(block?.reason ? { continueWith: block.reason } : {}) };
  }
}

/** The user's lines: each hook's warning, and the reason of a block that cannot block (SessionStart, PreCompact). */
function report(ran: readonly Ran[]): HookReport {
  const notices = ran.flatMap((r) => [
    ...(r.warning ? [r.warning] : []),
    ...(r.decision === 'deny' && (r.event === 'SessionStart' || r.event === 'PreCompact') && r.reason
      ? [`${r.event} hook: ${r.reason}`]
      : []),
  ]);
  return notices.length ? { notices } : {};
}
