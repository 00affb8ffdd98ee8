// The gateway's model records (spec 2.3) as VS Code language-model entries, without `vscode`.
import * as l10n from '@vscode/l10n';
import { DEFAULT_CONTEXT_WINDOW, resolveLimits, type ModelOverride } from '../../../api/models/modelLimits';
import { acceptsImages, isVideoModel, type ModelRecord } from '../../../api/models/models';

/** The shape of `vscode.LanguageModelChatInformation` (1.104). */
export interface LmModelInfo {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly tooltip?: string;
  readonly detail?: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly capabilities: { readonly imageInput?: boolean; readonly toolCalling?: boolean | number };
}

/**
 * Limits used when neither the record nor the overrides state them: the chat's stated default
 * window (see `api/modelLimits.ts`), of which at most 16K, and never more than half, may be the answer.
 */
export const DEFAULT_CONTEXT_TOKENS = DEFAULT_CONTEXT_WINDOW;
export const DEFAULT_OUTPUT_TOKENS = 16_384;

/**
 * Input and output token limits: the same window the chat panel uses (record fields in every
 * shape, then the user's override), split so that input plus output is the window.
 */
export function tokenLimits(
  m: ModelRecord,
  override?: ModelOverride,
): { maxInputTokens: number; maxOutputTokens: number } {
  const l = resolveLimits({ record: m, override });
  const output = Math.min(l.maxOutput ?? DEFAULT_OUTPUT_TOKENS, Math.floor(l.window / 2));
  return { maxInputTokens: l.window - output, maxOutputTokens: output };
}

/** One chat model as VS Code shows it: image input from its capabilities, tool calling always on. */
export function toModelInfo(m: ModelRecord, override?: ModelOverride): LmModelInfo {
  const caps = [...new Set([...(m.capabilities ?? []), ...(m.modalities ?? [])])];
  const tooltip = [
    l10n.t('{0} on your gateway', m.id),
    m.owned_by ? l10n.t('Provided by {0}.', m.owned_by) : '',
    caps.length > 0 ? l10n.t('Capabilities: {0}.', caps.join(', ')) : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    id: m.id,
    name: m.id,
    family: m.id,
    // Not `created`: one-api/new-api style relays fill it with the time of the listing, so VS Code
    // would see a new version at every refresh. `owned_by` is no version either (and is often
    // absent). The id is what names a deployment on a gateway (aligned versions get their own id,
    // such as gw-chat-2026-11) and what VS Code's selectors already match, so it is stable
    // exactly as long as the model is the same one.
    version: m.id,
    tooltip,
    ...(m.owned_by ? { detail: m.owned_by } : {}),
    ...tokenLimits(m, override),
    capabilities: {
      imageInput: override?.images ?? acceptsImages(m),
      // A relay's model declared right: tools off when the overrides say so.
      toolCalling: override?.tools ?? true,
    },
  };
}

/** The chat models of a `/v1/models` answer: video models are left out (they cannot chat). */
export function chatModelInfos(
  records: readonly ModelRecord[],
  overrides: Readonly<Record<string, ModelOverride>> = {},
): LmModelInfo[] {
  return records.filter((m) => !isVideoModel(m)).map((m) => toModelInfo(m, overrides[m.id]));
}

/** What {@link LmModelCache} lists from (a `GatewayClient`, or any object with this method). */
export interface ModelSource {
  listModels(signal?: AbortSignal): Promise<ModelRecord[]>;
}

/**
 * The chat models last listed from one source, reused for `ttlMs` while the source (the client,
 * which changes with the key and the base URL) stays the same. `invalidate` drops them, for
 * instance when a request to a listed model answers 404, so that the model picker stops offering
 * a model the gateway no longer has.
 */
export class LmModelCache {
  private entry?: { source: ModelSource; at: number; models: LmModelInfo[] };
  /** Bumped by `invalidate`, so a listing that was under way then does not refill the cache with the old answer. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached models of `source`, or undefined when there are none or they are too old. */
  cached(source: ModelSource): LmModelInfo[] | undefined {
    const e = this.entry;
    return e && e.source === source && this.now() - e.at < this.ttlMs ? e.models : undefined;
  }

  /** Lists the chat models of `source` (one `GET /v1/models`) and caches them. */
  async load(
    source: ModelSource,
    signal?: AbortSignal,
    overrides: Readonly<Record<string, ModelOverride>> = {},
  ): Promise<LmModelInfo[]> {
    const generation = this.generation;
    const models = chatModelInfos(await source.listModels(signal), overrides);
    if (generation === this.generation) this.entry = { source, at: this.now(), models };
    return models;
  }

  /** Forgets the cached list; the next {@link cached} is undefined. */
  invalidate(): void {
    this.entry = undefined;
    this.generation++;
  }
}
