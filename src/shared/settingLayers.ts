/**
 * The layers of one setting with the user's own value apart from everything a repository can
 * write. VS Code's `inspect().globalValue` merges the local user settings with the remote
 * machine's (`…/data/Machine/settings.json` of a dev container, Codespace, SSH host or
 * code-server), and a repository writes the remote machine's settings itself: a dev container's
 * `customizations.vscode.settings` lands there on *Reopen in Container*. So the remote layer is
 * one more value the repository chose, read like a workspace value, never as the user's.
 */

/** What the extension host's `inspect()` returns (the local/remote split is there at run time). */
export interface InspectedSetting {
  defaultValue?: unknown;
  globalValue?: unknown;
  /** The local user settings; present (maybe undefined) on hosts that split the user layer. */
  globalLocalValue?: unknown;
  /** The remote machine's settings, written by the dev container's configuration among others. */
  globalRemoteValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** One setting's layers as the extension reads them. */
export interface SettingLayers {
  defaultValue?: unknown;
  /** The user's own value: their local user settings only. */
  globalValue?: unknown;
  /** The remote machine's settings: chosen by whoever built the machine, so like a workspace value. */
  remoteValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** The layers a repository may have written, in the order one overrides the next (last wins). */
export const REPOSITORY_LAYERS = ['remoteValue', 'workspaceValue', 'workspaceFolderValue'] as const;
export type RepositoryLayer = (typeof REPOSITORY_LAYERS)[number];

/**
 * Splits `inspect()`'s answer. A host that does not report the local layer apart (older VS Code,
 * the tests' fakes) has no remote layer for the extension to tell apart, so its `globalValue`
 * stands for the user's own.
 */
export function splitLayers(i: InspectedSetting | undefined): SettingLayers {
  if (!i) return {};
  const split = 'globalLocalValue' in i || 'globalRemoteValue' in i;
  const out: SettingLayers = {
    defaultValue: i.defaultValue,
    globalValue: split ? i.globalLocalValue : i.globalValue,
    workspaceValue: i.workspaceValue,
    workspaceFolderValue: i.workspaceFolderValue,
  };
  if (split && i.globalRemoteValue !== undefined) out.remoteValue = i.globalRemoteValue;
  return out;
}

/**
 * The value a repository set, the most specific layer first (folder, workspace, remote machine),
 * with the layer it came from; undefined when none did. `usable` filters out values that count as
 * unset (an empty string, say).
 */
export function repositoryValue(
  l: SettingLayers,
  usable: (v: unknown) => boolean = (v) => v !== undefined,
): { value: unknown; layer: RepositoryLayer } | undefined {
  for (const layer of [...REPOSITORY_LAYERS].reverse()) {
    if (usable(l[layer])) return { value: l[layer], layer };
  }
  return undefined;
}
