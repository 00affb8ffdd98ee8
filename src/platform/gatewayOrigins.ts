import * as vscode from 'vscode';
import { GatewayError } from '../api/transport/errors';
import { decideAddress, type OriginAnswer } from '../api/transport/gatewayAddress';
import { gatewayOriginsKey, loadState, saveState } from '../contracts/persistedState/platform';
import type { Logger } from './log';
import { settingLayers } from './userSettings';

/** The setting keys whose value decides where the key goes. */
export type AddressSetting = 'baseUrl' | 'videoBaseUrl';

/** Where a repository wrote the address: the folder's settings, or the remote machine's. */
export type AddressPlace = 'workspace' | 'remote';

/** Asks the user whether the key may go to a workspace-set origin; undefined when dismissed. */
export type OriginPrompt = (origin: string, setting: string, place: AddressPlace) => Promise<OriginAnswer | undefined>;

/**
 * The gate between a workspace's settings and the key (see src/api/transport/gatewayAddress.ts). Answers are
 * kept in global state, which no workspace file can write. One prompt per origin at a time: the
 * model list, the chat and the status bar asking at once see one dialog.
 */
export class GatewayOrigins {
  /** The dialog; the integration tests answer through the extension's exports instead. */
  prompt: OriginPrompt = askWithModal;
  private readonly asking = new Map<string, Promise<OriginAnswer | undefined>>();
  /** Origins dismissed (Escape) in this window: refused until asked again after a restart. */
  private readonly dismissed = new Set<string>();

  constructor(
    private readonly state: vscode.Memento,
    private readonly log: Logger,
    private readonly isTrusted: () => boolean = () => vscode.workspace.isTrusted,
  ) {}

  answers(): Record<string, OriginAnswer> {
    return loadState(this.state, gatewayOriginsKey);
  }

  /** Forgets every remembered answer (the "Forget Workspace Gateway Choices" command). */
  async forget(): Promise<void> {
    this.dismissed.clear();
    await saveState(this.state, gatewayOriginsKey, undefined);
  }

  /**
   * The address to use for `setting`, asking the user first when a workspace sets an origin they
   * have not answered. Throws `GatewayError('config')` when they refuse (now or before), so the
   * caller's error path explains it and no request is made.
   */
  async address(setting: AddressSetting): Promise<string> {
    const full = `gatewayStudio.${setting}`;
    const d = decideAddress(settingLayers(setting), { trusted: this.isTrusted(), answers: this.answers() });
    const place: AddressPlace = d.remote ? 'remote' : 'workspace';
    if (d.kind === 'use') {
      if (d.ignoredWorkspaceValue !== undefined)
        this.log.warn(`${full}: the untrusted workspace's value (${d.ignoredWorkspaceValue}) is ignored.`);
      return d.value;
    }
    if (d.kind === 'ask' && !this.dismissed.has(d.origin)) {
      const answer = await this.ask(d.origin, full, place);
      if (answer === 'allow') return d.value;
      if (answer === undefined) this.dismissed.add(d.origin);
    }
    throw new GatewayError(
      'config',
      place === 'remote'
        ? vscode.l10n.t(
            "The remote machine's settings (for example a dev container's devcontainer.json) set {0} to {1}, and you did not allow sending your API key there, so nothing was sent. Remove the setting from the container's configuration, or run \"Gateway Studio: Forget Workspace Gateway Choices\" to be asked again.",
            full,
            d.origin,
          )
        : vscode.l10n.t(
            'This workspace\'s settings set {0} to {1}, and you did not allow sending your API key there, so nothing was sent. Remove the setting from the workspace, or run "Gateway Studio: Forget Workspace Gateway Choices" to be asked again.',
            full,
            d.origin,
          ),
      { field: full },
    );
  }

  private ask(origin: string, setting: string, place: AddressPlace): Promise<OriginAnswer | undefined> {
    let pending = this.asking.get(origin);
    if (!pending) {
      pending = this.prompt(origin, setting, place).then(async (answer) => {
        if (answer !== undefined) {
          await saveState(this.state, gatewayOriginsKey, { ...this.answers(), [origin]: answer });
          this.log.info(
            `${setting}: the user ${answer === 'allow' ? 'allowed' : 'refused'} the ${place === 'remote' ? "remote machine's" : "workspace's"} ${origin}.`,
          );
        }
        return answer;
      });
      const settled = pending.finally(() => this.asking.delete(origin));
      this.asking.set(origin, settled);
      return settled;
    }
    return pending;
  }
}

async function askWithModal(origin: string, setting: string, place: AddressPlace): Promise<OriginAnswer | undefined> {
  const send = vscode.l10n.t('Send Key to {0}', origin);
  const refuse = vscode.l10n.t("Don't Send");
  const remote = place === 'remote';
  const pick = await vscode.window.showWarningMessage(
    remote
      ? vscode.l10n.t("The remote machine's settings set the gateway to {0}. Send your API key there?", origin)
      : vscode.l10n.t('This workspace sets the gateway to {0}. Send your API key there?', origin),
    {
      modal: true,
      detail: remote
        ? vscode.l10n.t(
            "The address ({0}) comes from the remote machine's settings, which a dev container's devcontainer.json (customizations.vscode.settings) or a Codespace writes, not from your user settings. A repository you opened in a container can set it to a server of its own. Your answer is remembered for this address.",
            setting,
          )
        : vscode.l10n.t(
            "The address comes from this workspace's settings ({0}), not from your user settings. A repository you cloned can set it to a server of its own. Your answer is remembered for this address.",
            setting,
          ),
    },
    send,
    refuse,
  );
  return pick === send ? 'allow' : pick === refuse ? 'refuse' : undefined;
}
