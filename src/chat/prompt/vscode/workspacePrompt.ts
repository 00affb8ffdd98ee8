// A workspace's `gatewayStudio.chat.systemPrompt` (issue 35 item 4). A repository's
// `.vscode/settings.json` is text its author wrote, like AGENTS.md: it goes into the prompt as a
// rules entry (a chip the user sees and can switch off, under the rules' framing as data), never
// under "The user's instructions", which hold the user's own setting only
// (src/platform/settings.ts). It is a restricted setting: in Restricted Mode it is not read at all,
// whatever VS Code's own filter did (the nested-form bypass up to 1.136.1, microsoft/vscode#335112).
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { settingLayers } from '../../../platform/userSettings';
import { SYSTEM_PROMPT_SETTING } from '../core/systemPrompt';

/** One workspace layer's value, as a rules entry before the size limits. */
export interface WorkspacePrompt {
  /** The chip: the settings file it comes from, workspace-relative (`.vscode/settings.json`). */
  id: string;
  /** The settings file, to open it from the chip. */
  path: string;
  text: string;
}

const KEY = SYSTEM_PROMPT_SETTING.slice('gatewayStudio.'.length);

/**
 * The workspace's and each workspace folder's value of the setting (not the user's), in that
 * order, one per settings file; the same text from two layers is one entry.
 */
export function workspacePrompts(): WorkspacePrompt[] {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const file = vscode.workspace.workspaceFile;
  const out: WorkspacePrompt[] = [];
  const add = (value: unknown, uri: vscode.Uri | undefined, id: string) => {
    if (typeof value !== 'string' || value.trim() === '' || !uri) return;
    if (out.some((p) => p.text === value)) return;
    out.push({ id, path: uri.fsPath, text: value });
  };
  const layers = settingLayers(KEY);
  // A dev container's settings (the remote machine's layer) are the repository's words too; the
  // chip opens the devcontainer.json they most likely come from.
  if (folders[0]) add(layers.remoteValue, devContainerFile(folders[0]), vscode.l10n.t("the dev container's settings"));
  const ws = layers.workspaceValue;
  if (file) add(ws, file, file.path.split('/').pop() ?? file.path);
  else if (folders[0]) add(ws, settingsFile(folders[0]), '.vscode/settings.json');
  // Folder values only exist apart from the workspace's in a multi-root workspace.
  if (file)
    for (const f of folders) {
      const v = settingLayers(KEY, f.uri).workspaceFolderValue;
      add(v, settingsFile(f), `${f.name}/.vscode/settings.json`);
    }
  return out;
}

function devContainerFile(f: vscode.WorkspaceFolder): vscode.Uri {
  const nested = vscode.Uri.joinPath(f.uri, '.devcontainer', 'devcontainer.json');
  const root = vscode.Uri.joinPath(f.uri, '.devcontainer.json');
  return !existsSync(nested.fsPath) && existsSync(root.fsPath) ? root : nested;
}

function settingsFile(f: vscode.WorkspaceFolder): vscode.Uri {
  return vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json');
}

/** The warning of a workspace whose system prompt is not sent because it is not trusted. */
export function untrustedPromptText(id: string): string {
  return vscode.l10n.t(
    '{0} sets a system prompt (gatewayStudio.chat.systemPrompt); it is not sent while the workspace is not trusted (Restricted Mode).',
    id,
  );
}
