import { acceptsImages, isVideoModel, type ModelRecord } from '../../../api/models/models';
import { isGatewayError } from '../../../api/transport/errors';
import type { ErrorView, HostMessage, ModelInfo } from '../../../shared/protocol';
import { errorView } from './errorView';

/**
 * The chat models of the gateway as the model picker shows them (video models left out), with
 * whether they are loading and why the last load failed. Loaded when a view first needs them and
 * again after the settings or the key changed.
 */
export class ModelList {
  private models: ModelInfo[] = [];
  private error: ErrorView | undefined;
  private loading = false;
  private loaded = false;
  /** The gateway refused the list and no key was set: the page offers Set API Key, not an error. */
  private noCredentials = false;

  /**
   * @param list the gateway's model records; rejects when the gateway (or its client) fails.
   * @param broadcast where `models/list` goes when loading starts and ends.
   * @param deps where warnings go, and whether the list's request carries a key (without
   *   `hasKey`, it does; with none, a refusal is no error: see load()).
   */
  constructor(
    private readonly list: () => Promise<ModelRecord[]>,
    private readonly broadcast: (msg: HostMessage) => void,
    private readonly deps: { log: { warn(msg: string): void }; hasKey?: () => Promise<boolean> },
  ) {}

  /** Never loaded, or its source changed, and not loading now. */
  get stale(): boolean {
    return !this.loaded && !this.loading;
  }

  /** The key or the settings changed: the next view that shows up (or a refresh) loads it again. */
  invalidate(): void {
    this.loaded = false;
  }

  /** What the list says of the model `id` (undefined: not in it, or not loaded). */
  info(id: string): ModelInfo | undefined {
    return this.models.find((m) => m.id === id);
  }

  /** The ids listed now (empty before the first load). */
  ids(): string[] {
    return this.models.map((m) => m.id);
  }

  message(): HostMessage {
    return { type: 'models/list', models: this.models, loading: this.loading, error: this.error, ...this.keyField() };
  }

  private async keySet(): Promise<boolean> {
    return this.deps.hasKey ? this.deps.hasKey().catch(() => true) : true;
  }

  private keyField(): { noCredentials?: true } {
    return this.noCredentials ? { noCredentials: true } : {};
  }

  async load(): Promise<void> {
    this.loading = true;
    this.broadcast({ type: 'models/list', models: this.models, loading: true });
    try {
      const records = await this.list();
      this.models = records
        .filter((r) => !isVideoModel(r))
        .map((r) => ({
          id: r.id,
          ownedBy: r.owned_by,
          capabilities: r.capabilities ?? [],
          supportsImages: acceptsImages(r),
          ...(typeof r.reasoning_effort === 'string' ? { reasoningEffort: r.reasoning_effort } : {}),
        }));
      this.error = undefined;
      this.noCredentials = false;
      this.loaded = true;
    } catch (err) {
      // The list is asked for as soon as a chat opens, key or not: a local server that needs none
      // answers without one. A gateway that refuses it while no key was sent has refused nothing the
      // user did: the page says to set the key (with the button) instead of showing a 401.
      this.noCredentials = isGatewayError(err, 'auth', 'forbidden') && !(await this.keySet());
      this.error = this.noCredentials ? undefined : errorView(err);
      this.deps.log.warn(
        this.error
          ? `model list: ${this.error.title}: ${this.error.detail}`
          : 'model list: the gateway wants an API key and none is set (run "Set API Key")',
      );
    } finally {
      this.loading = false;
    }
    this.broadcast({ type: 'models/list', models: this.models, loading: false, error: this.error, ...this.keyField() });
  }
}
