import * as vscode from 'vscode';
import type { GatewayClient } from '../../../api/client';
import { getGatewayClient } from '../../../platform/gateway';
import type { Services } from '../../../platform/services';
import { settingLayers } from '../../../platform/userSettings';
import { repositoryValue } from '../../../shared/settingLayers';
import { failoverCoolDownsKey, loadState, saveState } from '../../../contracts/persistedState/failover';
import type { SessionBackend } from '../../session/core/sessionDeps';
import { CoolDowns } from '../core/coolDowns';
import { FailoverBackend, ModelLists, type FailoverDeps, type FailoverTarget } from '../core/failoverBackend';
import { readFailoverLists, type FailoverLists } from '../core/failoverPlan';

/**
 * The chat's failover (issue 39) in the extension: the lists from the user's own settings only (a
 * repository's `gatewayStudio.failover`, like its profiles, is ignored and said once in the log:
 * it would decide where a request and a key go), each profile's client from `getGatewayClient`
 * (its own key, headers and checks), the cool-downs in global state (the balance tooltip shows them).
 */
class ChatFailover {
  private readonly deps: FailoverDeps;
  private readonly said = new Set<string>();

  constructor(private readonly s: Services) {
    const state = s.context.globalState;
    this.deps = {
      lists: () => this.lists(),
      profiles: () => s.profiles.list().profiles,
      target: async (id) => this.target(id, await getGatewayClient(s, 'chat', id)),
      coolDowns: new CoolDowns({
        load: () => loadState(state, failoverCoolDownsKey),
        save: (all) => saveState(state, failoverCoolDownsKey, all),
      }),
      models: new ModelLists(),
      timeText: (ms) => new Date(ms).toLocaleTimeString(vscode.env.language),
      log: (line) => s.log.info(line),
    };
  }

  private target(profileId: string, client: GatewayClient): FailoverTarget {
    const name = this.s.profiles.get(profileId)?.name ?? profileId;
    return { profileId, name, client, relay: client.http.baseUrl };
  }

  /** The user's lists now; a repository's value is ignored, every problem logged once. */
  private lists(): FailoverLists {
    const layers = settingLayers('failover');
    const set = repositoryValue(layers);
    const lists = readFailoverLists(layers.globalValue);
    const problems = [...lists.problems];
    if (set)
      problems.push(
        `gatewayStudio.failover: the value in ${set.layer === 'remoteValue' ? "the remote machine's settings (a dev container's)" : "this workspace's settings"} is ignored; failover lists decide where a request and its key go and come from your user settings only.`,
      );
    for (const p of problems) {
      if (this.said.has(p)) continue;
      this.said.add(p);
      this.s.log.warn(p);
    }
    return lists;
  }

  async backend(profileId: string): Promise<FailoverBackend> {
    return new FailoverBackend(this.target(profileId, await getGatewayClient(this.s, 'chat', profileId)), this.deps);
  }
}

const failovers = new WeakMap<Services, ChatFailover>();

/** The chat's backend for the conversation's profile, failing over by the user's lists. */
export function failoverBackend(s: Services, profileId: string): Promise<SessionBackend> {
  let f = failovers.get(s);
  if (!f) failovers.set(s, (f = new ChatFailover(s)));
  return f.backend(profileId);
}

/** Who a backend's requests are billed to (the answer's price and the caps' quote ask it). */
export { answering } from '../core/answering';
