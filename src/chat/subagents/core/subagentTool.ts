/**
 * The `run_subagent` tool: the parent hands one task (or several, run side by side up to the
 * user's limit) to named subagents and reads back their summaries as the tool's result. Each
 * run's tools are the subagent's own list intersected with what the parent's turn may use (its
 * agent, the model's tool mode, the user's enabled tools: the runner offers no other), so an
 * agent file can never give a subagent a tool the user turned off; `run_subagent` itself only
 * where the depth limit and the subagent's `agents:` allow.
 */
import * as l10n from '@vscode/l10n';
import type { ToolMessage } from '../../../api/chat/wire';
import type { ToolMode } from '../../../shared/protocol';
import type { AgentDefinition } from '../../agents/core/agent';
import { agentAllows } from '../../agents/core/turnAgent';
import { ToolError, type Tool, type ToolCallContext, type ToolResult } from '../../tools/core/runner';
import { scopeExecutor } from '../../tools/core/scope';
import { ToolRunStopped, type ToolAllow, type ToolExecutor } from '../../tools/core/seam';
import { callableFrom, EXPLORE, resolveSubagent, RUN_SUBAGENT, type SubagentList } from './definitions';
import { MAX_TASKS, SUBAGENT_TOOL_DEFINITION } from './toolDefinition';
import type { ParentTurn, SubagentToolDeps } from './deps';
import { Limiter } from './limiter';
import { chooseModel } from './modelChoice';
import { RunCard } from './runCard';
import { resultText, runSubagent } from './subagentRun';

/** One task of a call, as the model wrote it. */
export interface SubagentTask {
  agent: string;
  task: string;
  model?: string;
  profile?: string;
}

/** The call's tasks: `tasks`, or the one `agent` and `task`; a ToolError the model reads otherwise. */
export function readTasks(args: Record<string, unknown>): SubagentTask[] {
  const raw = Array.isArray(args.tasks) ? (args.tasks as unknown[]) : [args];
  if (Array.isArray(args.tasks) && (args.agent !== undefined || args.task !== undefined))
    throw new ToolError(l10n.t('Give either "tasks" or "agent" and "task", not both.'));
  const out = raw.map((r): SubagentTask => {
    const o = typeof r === 'object' && r !== null ? (r as Record<string, unknown>) : {};
    const text = (k: string) => (typeof o[k] === 'string' ? o[k].trim() : '');
    const [model, profile] = [text('model'), text('profile')];
    return { agent: text('agent'), task: text('task'), ...(model ? { model } : {}), ...(profile ? { profile } : {}) };
  });
  if (out.length === 0 || out.length > MAX_TASKS)
    throw new ToolError(l10n.t('Give between 1 and {0} tasks.', MAX_TASKS));
  const empty = out.findIndex((t) => !t.agent || !t.task);
  if (empty >= 0) throw new ToolError(l10n.t('Task {0} needs an "agent" and a "task".', empty + 1));
  return out;
}

export function subagentTool(deps: SubagentToolDeps): Tool {
  const limiter = new Limiter(() => deps.settings().maxParallel);
  return {
    definition: SUBAGENT_TOOL_DEFINITION,
    // Reads nothing itself; what each run's tools do is asked and enforced per call inside it.
    readOnly: true,
    prepare: (args, ctx) => {
      const tasks = readTasks(args);
      const argumentsJson = JSON.stringify(args, null, 2);
      return Promise.resolve({
        summary: tasks.map((t) => `${t.agent}: ${t.task.split('\n')[0] ?? ''}`).join('\n'),
        run: (c) => runAll(deps, limiter, tasks, { ...ctx, ...c }, argumentsJson),
      });
    },
  };
}

async function runAll(
  deps: SubagentToolDeps,
  limiter: Limiter,
  tasks: SubagentTask[],
  ctx: ToolCallContext,
  argumentsJson: string,
): Promise<ToolResult> {
  const depth = ctx.subagent?.depth ?? 0;
  const parent = await deps.parent(ctx);
  const caller = ctx.subagent ? await lookUp(deps, ctx.subagent.agent) : parent.agent;
  const list = callableFrom(caller, depth);
  const card = new RunCard(
    deps,
    ctx,
    argumentsJson,
    tasks.map((t) => t.agent),
  );
  const results = await Promise.all(
    tasks.map((t, k) =>
      limiter
        .run(ctx.signal, () => runOne(deps, { task: t, k, ctx, parent, list, depth, card }))
        .catch((e: unknown) => {
          if (ctx.signal.aborted) throw e;
          card.set(k, { state: 'failed' });
          return { ok: false, text: `Error: ${e instanceof Error ? e.message : String(e)}` };
        }),
    ),
  );
  if (results.every((r) => !r.ok)) throw new ToolError(results.map((r) => r.text.replace(/^Error: /, '')).join('\n'));
  const content =
    results.length === 1
      ? (results[0]?.text ?? '')
      : results.map((r, k) => `### ${k + 1}. ${tasks[k]?.agent ?? ''}\n${r.text}`).join('\n\n');
  return { content, preview: `${card.text()}\n\n${content}` };
}

async function lookUp(deps: SubagentToolDeps, name: string): Promise<AgentDefinition | undefined> {
  return name.toLowerCase() === EXPLORE.id ? EXPLORE : deps.agent(name);
}

interface OneRun {
  task: SubagentTask;
  k: number;
  ctx: ToolCallContext;
  parent: ParentTurn;
  list: SubagentList;
  depth: number;
  card: RunCard;
}

async function runOne(deps: SubagentToolDeps, r: OneRun): Promise<{ ok: boolean; text: string }> {
  const { ctx, card, k } = r;
  const found = await resolveSubagent(r.task.agent, r.list, (n) => deps.agent(n));
  if (!found.ok) throw new ToolError(found.why);
  const agent = found.agent;
  const s = deps.settings();
  const choice = await chooseModel({
    asked: r.task,
    agent,
    parent: r.parent,
    utilityModel: s.utilityModel,
    profiles: deps.profiles(),
    backend: (p) => deps.backend(p),
    signal: ctx.signal,
  });
  if (!choice.ok) throw new ToolError(choice.why);
  card.set(k, { agent: agent.name, model: choice.model, state: 'running' });
  const executor = subagentExecutor(deps, r, agent, choice.model);
  const out = await runSubagent({
    agent,
    task: r.task.task,
    model: choice.model,
    backend: choice.backend,
    executor,
    maxRounds: s.maxRounds,
    signal: ctx.signal,
    conversationId: ctx.conversationId,
    ...(deps.price ? { price: (q) => deps.price!(choice.backend, q) } : {}),
    cap: (unit) => deps.cap?.(ctx.conversationId, unit),
    onProgress: (progress) => card.set(k, { progress }),
  });
  if (out.cost) deps.spent?.(ctx.conversationId, out.cost);
  card.set(k, { state: out.status === 'done' ? 'done' : 'failed' });
  if (ctx.signal.aborted) throw new DOMException('The subagent was stopped.', 'AbortError');
  return { ok: out.status === 'done' || out.summary.trim() !== '', text: resultText(agent.name, out, s.maxRounds) };
}

const MODE_ALLOWS: Record<ToolMode, ToolAllow> = {
  all: () => true,
  readOnly: (_n, readOnly) => readOnly,
  none: () => false,
};

/**
 * The run's tools: the chat's runner (enabled tools only) narrowed to the parent turn's scope,
 * the subagent's own list and its model's tool mode; `run_subagent` only when it may go deeper.
 * Its calls carry the parent's answer (checkpoints) and ids of their own, and the depth.
 */
function subagentExecutor(
  deps: SubagentToolDeps,
  r: OneRun,
  agent: AgentDefinition,
  model: string,
): ToolExecutor | undefined {
  const parentAllows = r.ctx.allowed ?? (() => true);
  const own = agentAllows(agent);
  const mode = MODE_ALLOWS[deps.modeFor?.(model) ?? 'all'];
  const deeper = callableFrom(agent, r.depth + 1);
  const mayNest = deeper.kind === 'any' || deeper.names.length > 0;
  const allow: ToolAllow = (name, ro) =>
    parentAllows(name, ro) && own(name, ro) && mode(name, ro) && (name !== RUN_SUBAGENT || mayNest);
  const runner = deps.runner({ approve: r.card.approver(agent.name), onUpdate: () => undefined });
  const scoped = scopeExecutor(runner, allow, l10n.t('the subagent "{0}"', agent.name));
  if (scoped.definitions().length === 0) return undefined;
  const prefix = `${r.ctx.callId}.${r.k}.`;
  return {
    ...scoped,
    execute: async (calls, c) => {
      const renamed = calls.map((call) => ({ ...call, id: prefix + call.id }));
      const back = (out: ToolMessage[]) =>
        out.map((m) => ({ ...m, tool_call_id: m.tool_call_id.slice(prefix.length) }));
      try {
        return back(
          await scoped.execute(renamed, {
            ...c,
            ...(r.ctx.answerId !== undefined ? { answerId: r.ctx.answerId } : {}),
            subagent: { depth: r.depth + 1, agent: agent.name },
          }),
        );
      } catch (e) {
        throw e instanceof ToolRunStopped ? new ToolRunStopped(back(e.results)) : e;
      }
    },
  };
}
