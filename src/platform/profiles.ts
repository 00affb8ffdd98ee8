import * as vscode from 'vscode';
import { repositoryValue } from '../shared/settingLayers';
import { settingLayers, userValue } from './userSettings';
import type { HeaderMap } from '../api/transport/headers';
import { DEFAULT_PROFILE_ID, keySlot } from '../api/transport/profileIds';
import type * as ProfileParser from '../api/transport/profiles';
import type * as HeaderRules from '../api/transport/headerRules';
import type { Profile, ProfileList } from '../api/transport/profiles';
import type { Logger } from './log';
import { readSettings } from './settings';
import { activeProfileKey, loadState, profilesMigratedKey, saveState } from '../contracts/persistedState/platform';

export type { Profile } from '../api/transport/profiles';
export { DEFAULT_PROFILE_ID } from '../api/transport/profileIds';

/** The parser (src/api/transport/profiles.ts, headerRules.ts), loaded right after activation. */
type Parser = typeof ProfileParser & typeof HeaderRules;

/**
 * The user's gateway profiles (src/api/transport/profiles.ts) and which one is active. Profiles are read
 * from the user's settings only (`inspect().globalValue`): a workspace value of
 * `gatewayStudio.profiles` is ignored and said once in the log. Keys live in secret storage, one
 * slot per profile; Default's slot is the key of earlier versions.
 */
export class GatewayProfiles implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  /** The list or the active profile changed. */
  readonly onDidChange = this.emitter.event;
  private readonly keyEmitter = new vscode.EventEmitter<string>();
  /** A profile's key changed (its id), in this window or another. */
  readonly onDidChangeKey = this.keyEmitter.event;
  private readonly subs: vscode.Disposable[] = [];
  private warnedWorkspace = false;
  private parser?: Parser;
  private loading?: Promise<void>;
  /** What still runs on a profile (video tasks), asked before the profile is removed. */
  private readonly users = new Set<(profileId: string) => string[]>();

  constructor(
    private readonly state: vscode.Memento,
    private readonly secrets: vscode.SecretStorage,
    private readonly log: Logger,
  ) {
    this.subs.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('gatewayStudio.profiles')) this.emitter.fire();
      }),
      secrets.onDidChange((e) => {
        const p = this.list().profiles.find((x) => keySlot(x.id) === e.key);
        if (p) this.keyEmitter.fire(p.id);
      }),
    );
  }

  /**
   * Loads the parser (its own chunk: the activation budget). Until then the list is Default
   * alone; whatever sends a request (gatewayHttpOptions, the key store) waits for this first.
   */
  ready(): Promise<void> {
    this.loading ??= Promise.all([import('../api/transport/profiles'), import('../api/transport/headerRules')]).then(
      ([p, h]) => {
        this.parser = { ...p, ...h };
        this.emitter.fire();
      },
    );
    return this.loading;
  }

  /** The profiles now (Default first) and the problems of the user's entries. */
  list(): ProfileList {
    const s = readSettings();
    if (!this.parser) {
      const def = { id: DEFAULT_PROFILE_ID, name: vscode.l10n.t('Default'), baseUrl: '', videoBaseUrl: '' };
      const models = { chatModel: s.chatModel, videoModel: s.videoModel };
      return { profiles: [{ ...def, ...models, headers: {}, problems: [] }], problems: [] };
    }
    const layers = settingLayers('profiles');
    const set = repositoryValue(layers);
    if (!this.warnedWorkspace && set) {
      this.warnedWorkspace = true;
      this.log.warn(
        `gatewayStudio.profiles: the value in ${set.layer === 'remoteValue' ? "the remote machine's settings (a dev container's)" : "this workspace's settings"} is ignored; profiles hold addresses and keys and come from your user settings only.`,
      );
    }
    return this.parser.readProfiles(layers.globalValue, { chatModel: s.chatModel, videoModel: s.videoModel });
  }

  get(id: string): Profile | undefined {
    return this.list().profiles.find((p) => p.id === id);
  }

  activeId(): string {
    return this.active().id;
  }

  /** The active profile; Default when the remembered one was removed. */
  active(): Profile {
    const list = this.list().profiles;
    return list.find((p) => p.id === loadState(this.state, activeProfileKey)) ?? list[0]!;
  }

  async setActive(id: string): Promise<void> {
    await this.ready();
    if (!this.get(id)) throw new Error(`no profile "${id}"`);
    if (loadState(this.state, activeProfileKey) === id) return;
    await saveState(this.state, activeProfileKey, id === DEFAULT_PROFILE_ID ? undefined : id);
    this.log.info(`active gateway profile: ${id}`);
    this.emitter.fire();
  }

  keyOf(id: string): Thenable<string | undefined> {
    return this.secrets.get(keySlot(id));
  }

  /** The secret slot of the active profile's key, once the list is read. */
  async activeSlot(): Promise<string> {
    await this.ready();
    return keySlot(this.activeId());
  }

  setKey(id: string, key: string): Thenable<void> {
    return this.secrets.store(keySlot(id), key);
  }

  clearKey(id: string): Thenable<void> {
    return this.secrets.delete(keySlot(id));
  }

  /**
   * The first start after the update: today's settings and key already are the Default profile
   * (nothing moves, nothing is copied into settings); the marker only records that it happened.
   */
  async migrate(version: string): Promise<boolean> {
    await this.ready();
    if (loadState(this.state, profilesMigratedKey) !== undefined) return false;
    const hadKey = (await this.keyOf(DEFAULT_PROFILE_ID)) !== undefined;
    await saveState(this.state, profilesMigratedKey, version);
    this.log.info(
      `gateway profiles: the existing settings${hadKey ? ' and key' : ''} are the profile "Default" (nothing was moved).`,
    );
    return true;
  }

  /** A feature says what it still runs on a profile (one line per task); undone by disposing. */
  registerUser(running: (profileId: string) => string[]): vscode.Disposable {
    this.users.add(running);
    return { dispose: () => this.users.delete(running) };
  }

  /** What still runs on `profileId` (the video tasks it polls or downloads). */
  runningOn(profileId: string): string[] {
    return [...this.users].flatMap((f) => f(profileId));
  }

  /** Lets the integration tests start again from a previous version's state. */
  async resetMigration(): Promise<void> {
    await saveState(this.state, profilesMigratedKey, undefined);
  }

  /**
   * Per-model `headers` of `gatewayStudio.models.overrides` for profile `profileId`'s gateway only
   * (`relay|model` keys for the profile `relay`, plain ids for Default: api/headerRules.ts), from the
   * user's settings only (a workspace's overrides keep their other fields, never headers); refused
   * ones reported. Call after {@link ready}.
   */
  modelHeaders(profileId: string, report: (problem: string) => void): Record<string, HeaderMap> {
    const raw = userValue('models.overrides');
    if (!this.parser) return {};
    const { headers, problems } = this.parser.readModelHeaders(raw, profileId);
    for (const p of problems) report(p);
    return headers;
  }

  dispose(): void {
    for (const d of this.subs) d.dispose();
    this.emitter.dispose();
    this.keyEmitter.dispose();
  }
}
