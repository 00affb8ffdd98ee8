/**
 * The session's side of the context window: the limits of each model (its record, the user's
 * overrides, windows learnt from overflow errors), the calibrated token estimate, the tools each
 * model gets (all, read-only, none: remembered per model), fitting each request before it is sent,
 * recovery from an overflow the server reports anyway, the meter, and the words of its failures.
 */
import * as l10n from '@vscode/l10n';
import type { ModelRecord } from '../../../api/models/models';
import { readOverflow } from '../../../api/chat/overflow';
import type { ChatBackend, ChatRequest, Usage } from '../../../api/chat/wire';
import type { ContextMeter, Conversation, ErrorView, ToolMode } from '../../../shared/protocol';
import {
  CompactionFailed,
  ContextTooSmall,
  attachmentTexts,
  buildFittedView,
  elideToFit,
  fitToWindow,
  KEEP_RECENT_TOOL_RESULTS,
  SAFETY_MARGIN,
  summariseEarlier,
  type Fitted,
  type FitOptions,
} from './compaction';
import {
  answerReserve,
  resolveModelLimits,
  TokenEstimator,
  type ModelLimits,
  type ModelOverride,
} from './contextWindow';
import {
  effectiveModel,
  effectiveParams,
  type BuildOptions,
  type RequestDefaults,
} from '../../conversation/core/request';
import type { KeyValueStorage } from '../../conversation/core/contracts';
import type { ToolExecutor } from '../../tools/core/seam';
import { contextWindowKey, loadState, saveState } from '../../../contracts/persistedState/chat';

interface PerModel {
  learned?: number;
  toolMode?: ToolMode;
}

export interface ContextGuardDeps {
  /** Where learnt windows and tool modes are kept (workspace state); in memory when absent. */
  storage?: KeyValueStorage;
  /** `gatewayStudio.models.overrides`, as it is now. */
  overrides: () => Record<string, ModelOverride>;
  now: () => number;
  log?: (msg: string) => void;
  /** Before a summary is asked for (the user's PreCompact hooks): `manual` is the Compact action. */
  beforeSummary?: (conversationId: string, trigger: 'manual' | 'auto', signal: AbortSignal) => Promise<void>;
}

/** What a turn asks of the context window (see `runTurn`). */
export interface TurnContext {
  /** The request for the conversation now, fitted; may summarise (one request to the model). */
  prepare(build: BuildOptions, signal: AbortSignal): Promise<Fitted>;
  /** The server's count for a request that was answered. */
  observe(req: ChatRequest, usage: Usage | undefined): void;
  /** True when `err` is an overflow: what it stated is learnt, and one retry is worth making. */
  overflowed(err: unknown, req: ChatRequest): boolean;
  /** The user's words for a context failure, or undefined for other errors. */
  describe(err: unknown): ErrorView | undefined;
}

export class ContextGuard {
  readonly estimator = new TokenEstimator();
  private readonly records = new Map<string, ModelRecord>();
  private listed = false;
  private memory: Record<string, PerModel>;
  private lastPrompt: number | undefined;

  constructor(private readonly deps: ContextGuardDeps) {
    this.memory = deps.storage ? loadState(deps.storage, contextWindowKey) : {};
  }

  /** The model list came (or came again). */
  setRecords(records: readonly ModelRecord[]): void {
    this.records.clear();
    for (const r of records) this.records.set(r.id, r);
    this.listed = true;
  }

  /** Lists the models once if nothing listed them yet; a failure leaves the default in place. */
  async ensureRecords(list: () => Promise<ModelRecord[]>): Promise<void> {
    if (this.listed) return;
    try {
      this.setRecords(await list());
    } catch (err) {
      this.listed = true;
      this.deps.log?.(`context window: model list not read: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  limits(model: string): ModelLimits {
    return resolveModelLimits({
      record: this.records.get(model),
      override: this.deps.overrides()[model],
      learned: this.memory[model]?.learned,
    });
  }

  toolMode(model: string): ToolMode {
    return this.memory[model]?.toolMode ?? 'all';
  }

  /** The tools a request for `model` carries: its tool mode, or none when its override says `tools: false`. */
  modeFor(model: string): ToolMode {
    return this.limits(model).tools === false ? 'none' : this.toolMode(model);
  }

  /** The model ids of the last list (empty before one came or when it failed). */
  listedModels(): string[] {
    return [...this.records.keys()];
  }

  setToolMode(model: string, mode: ToolMode): void {
    this.remember(model, { toolMode: mode });
  }

  private remember(model: string, change: PerModel): void {
    this.memory = { ...this.memory, [model]: { ...this.memory[model], ...change } };
    if (this.deps.storage) void saveState(this.deps.storage, contextWindowKey, this.memory);
  }

  /**
   * The tools a request for `model` carries, after its tool mode and its override's `tools: false`;
   * `afterTools`: the request answers tool results of the same turn (see `ToolExecutor.toolChoice`).
   */
  buildOptions(model: string, executor: ToolExecutor | undefined, afterTools = false): BuildOptions {
    if (!executor) return {};
    const mode = this.modeFor(model);
    if (mode === 'none') return {};
    const tools = mode === 'readOnly' ? (executor.readOnlyDefinitions?.() ?? []) : executor.definitions();
    const choice = executor.toolChoice({ afterTools });
    const named = typeof choice === 'object' ? choice.function.name : undefined;
    // A forced tool that this mode leaves out would make the gateway refuse the request.
    if (named !== undefined && !tools.some((t) => t.function.name === named)) return { tools };
    return { tools, toolChoice: choice };
  }

  /** The turn's view of this guard for one conversation. */
  forTurn(
    conversation: Conversation,
    defaults: RequestDefaults,
    backend: ChatBackend,
  ): TurnContext & { build(executor: ToolExecutor | undefined, afterTools: boolean): BuildOptions } {
    const model = (): string => effectiveModel(conversation, defaults);
    return {
      build: (executor, afterTools) => this.buildOptions(model(), executor, afterTools),
      prepare: (build, signal) => fitToWindow(this.fitOptions(conversation, defaults, backend, build, signal)),
      observe: (req, usage) => {
        if (!usage || usage.prompt_tokens <= 0) return;
        this.estimator.calibrate(req, usage.prompt_tokens);
        this.lastPrompt = usage.prompt_tokens;
      },
      overflowed: (err, req) => {
        const o = readOverflow(err);
        if (!o) return false;
        const m = model();
        const before = this.limits(m).window;
        if (o.window !== undefined) this.remember(m, { learned: o.window });
        const window = o.window ?? before;
        // The server's own count, when stated; else its refusal says the prompt with the answer's
        // room was past the window, so make the estimate say so too and the fit compacts.
        const reserve = answerReserve(window, req.max_tokens, this.limits(m).maxOutput);
        const est = this.estimator.count(req);
        const target = o.promptTokens ?? Math.max(est, window - reserve + 1);
        if (target !== est) this.estimator.calibrate(req, target);
        this.deps.log?.(
          `context overflow (${o.shape}): window ${o.window ?? '?'}, prompt ${o.promptTokens ?? '?'}; compacting and retrying once`,
        );
        return true;
      },
      describe: (err) => this.describe(err),
    };
  }

  private fitOptions(
    conversation: Conversation,
    defaults: RequestDefaults,
    backend: ChatBackend,
    build: BuildOptions,
    signal: AbortSignal,
    trigger: 'manual' | 'auto' = 'auto',
  ): FitOptions {
    let announced = false;
    return {
      conversation,
      defaults,
      build,
      limits: this.limits(effectiveModel(conversation, defaults)),
      estimator: this.estimator,
      signal,
      now: this.deps.now,
      summarise: async (req, s) => {
        if (!announced) await this.deps.beforeSummary?.(conversation.id, trigger, s);
        announced = true;
        return (await backend.chat(req, s)).message.content ?? '';
      },
    };
  }

  /** The manual Compact conversation: summarises everything before the latest user message. */
  async compact(
    conversation: Conversation,
    defaults: RequestDefaults,
    backend: ChatBackend,
    signal: AbortSignal,
  ): Promise<boolean> {
    const before = conversation.compaction;
    await summariseEarlier({
      ...this.fitOptions(conversation, defaults, backend, {}, signal, 'manual'),
      forceSummary: true,
    });
    return conversation.compaction !== before;
  }

  /** The meter for the next request of `conversation` (the draft is added by the webview). */
  meter(
    conversation: Conversation,
    defaults: RequestDefaults,
    executor: ToolExecutor | undefined,
  ): ContextMeter | undefined {
    const model = effectiveModel(conversation, defaults);
    if (!model) return undefined;
    const limits = this.limits(model);
    // The tools only, as before the choice could be read freely: the meter counts what they take.
    const { tools } = this.buildOptions(model, executor);
    const build: BuildOptions = tools ? { tools } : {};
    let req: ChatRequest;
    let maxTokens: number | undefined;
    try {
      req = buildFittedView(conversation, defaults, build);
      maxTokens = effectiveParams(conversation, defaults.params).max_tokens ?? undefined;
    } catch {
      // No model or a setting out of range: the send says so; there is nothing to measure.
      return undefined;
    }
    const reserve = answerReserve(limits.window, maxTokens, limits.maxOutput);
    elideToFit(
      req,
      this.estimator,
      limits.window - reserve - Math.ceil(limits.window * SAFETY_MARGIN),
      KEEP_RECENT_TOOL_RESULTS,
    );
    const b = this.estimator.breakdown(req, attachmentTexts(conversation));
    return {
      model,
      window: limits.window,
      source: limits.source,
      ...(limits.field ? { field: limits.field } : {}),
      ...b,
      reserve,
      charsPerToken: Math.round(this.estimator.charsPerToken * 100) / 100,
      ...(this.lastPrompt !== undefined ? { lastPromptTokens: this.lastPrompt } : {}),
      toolMode: this.toolMode(model),
      fixedTooLarge: b.system + b.tools + reserve > limits.window,
    };
  }

  describe(err: unknown): ErrorView | undefined {
    if (err instanceof ContextTooSmall) {
      const f = err.figures;
      return {
        title:
          err.reason === 'fixed'
            ? l10n.t("The tools and the system prompt alone do not fit this model's context window")
            : l10n.t("This message does not fit the model's context window"),
        detail: `${err.message} ${l10n.t("Send without tools, or with read-only tools only (remembered for this model), or set the model's window in gatewayStudio.models.overrides.")}`,
        actions:
          f.tools > 0
            ? ['toolsOff', 'toolsReadOnly', 'openSettings', 'showLog']
            : ['compact', 'openSettings', 'showLog'],
      };
    }
    if (err instanceof CompactionFailed) {
      return {
        title: l10n.t('Compaction failed'),
        detail: `${err.message} ${l10n.t('The conversation was left as it was.')}`,
        actions: ['retry', 'showLog'],
      };
    }
    const o = readOverflow(err);
    if (o) {
      const figures =
        o.window !== undefined && o.promptTokens !== undefined
          ? l10n.t('The server counted {0} tokens for a context window of {1}.', o.promptTokens, o.window)
          : o.window !== undefined
            ? l10n.t("The server's context window is {0} tokens.", o.window)
            : '';
      return {
        title: l10n.t("The conversation does not fit the model's context window"),
        detail: [
          figures,
          l10n.t('Gateway Studio compacted the conversation and retried once; it still did not fit.'),
          l10n.t('Server said: {0}', err instanceof Error ? err.message : String(err)),
        ]
          .filter(Boolean)
          .join(' '),
        actions: ['compact', 'toolsOff', 'toolsReadOnly', 'showLog'],
      };
    }
    return undefined;
  }
}
