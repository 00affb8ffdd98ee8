import { normaliseBaseUrl } from './baseUrl';
import { repositoryValue, type SettingLayers } from '../../shared/settingLayers';

export type { SettingLayers } from '../../shared/settingLayers';

/**
 * Where a gateway address may come from, and whether the key may go there. A cloned repository's
 * `.vscode/settings.json` or `*.code-workspace` can set `gatewayStudio.baseUrl`; taken as is, the
 * key would go to the repository's server with the first model-list request. So the layers of the
 * setting (VS Code's `inspect()`) are read one by one: the user's own value is used freely, a
 * workspace, folder or remote-machine value (a dev container's settings) only once the user
 * confirmed its origin, and never while the
 * workspace is untrusted (which also covers VS Code versions whose Restricted Mode let the nested
 * `{"gatewayStudio": {"baseUrl": …}}` form through, microsoft/vscode#335112).
 */

/** What the user answered for a workspace-set origin, remembered outside the workspace. */
export type OriginAnswer = 'allow' | 'refuse';

/**
 * `remote: true` marks a value from the remote machine's settings (a dev container's
 * `devcontainer.json`, a Codespace), so that the dialog names that place rather than the folder's.
 */
export type AddressDecision =
  /** Use `value` (may be empty: "not set"); `origin` is set when it came from the workspace. */
  | {
      kind: 'use';
      value: string;
      source: 'user' | 'workspace';
      origin?: string;
      ignoredWorkspaceValue?: string;
      remote?: true;
    }
  /** The workspace sets an origin the user has not answered yet: ask before any request. */
  | { kind: 'ask'; value: string; origin: string; remote?: true }
  /** The user refused this workspace-set origin: no request goes there. */
  | { kind: 'refused'; value: string; origin: string; remote?: true };

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/**
 * The origin (`https://host:port`) an address sends the key to, or undefined when it is not a
 * usable address (then the request fails with the normal "invalid base URL" error, sending nothing).
 */
export function originOf(address: string, allowInsecureHttp = true): string | undefined {
  try {
    return new URL(normaliseBaseUrl(address, undefined, allowInsecureHttp).url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Decides which value of the setting to use. `answers` holds the remembered answers per origin;
 * `trusted` is `vscode.workspace.isTrusted`.
 */
export function decideAddress(
  layers: SettingLayers,
  o: { trusted: boolean; answers: Readonly<Record<string, OriginAnswer>> },
): AddressDecision {
  const user = text(layers.globalValue) ?? text(layers.defaultValue) ?? '';
  const set = repositoryValue(layers, (v) => text(v) !== undefined);
  if (set === undefined) return { kind: 'use', value: user, source: 'user' };
  const fromWorkspace = text(set.value) ?? '';
  const remote = set.layer === 'remoteValue' ? ({ remote: true } as const) : {};
  const origin = originOf(fromWorkspace);
  // An unusable address sends nothing anywhere; the normal error names it.
  if (origin === undefined) return { kind: 'use', value: fromWorkspace, source: 'workspace', ...remote };
  // The same origin as the user's own value: nothing new learns the key.
  if (user !== '' && originOf(user) === origin)
    return { kind: 'use', value: fromWorkspace, source: 'workspace', origin, ...remote };
  if (!o.trusted) return { kind: 'use', value: user, source: 'user', ignoredWorkspaceValue: fromWorkspace, ...remote };
  const answer = Object.prototype.hasOwnProperty.call(o.answers, origin) ? o.answers[origin] : undefined;
  if (answer === 'allow') return { kind: 'use', value: fromWorkspace, source: 'workspace', origin, ...remote };
  if (answer === 'refuse') return { kind: 'refused', value: fromWorkspace, origin, ...remote };
  return { kind: 'ask', value: fromWorkspace, origin, ...remote };
}
