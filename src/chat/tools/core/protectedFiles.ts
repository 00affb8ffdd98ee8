/**
 * Files a tool may touch only with the user's say-so every time, whatever trust the tool has.
 * `.git/` and `.vscode/` are refused outright (./toolPaths); these stay usable, but a hostile
 * prompt (a poisoned README, an issue text) that gets the model to write one of them gains code
 * execution or a lasting hold on every later request (CVE-2025-53773 wrote `.vscode/settings.json`;
 * a `.code-workspace` file or a git hook does the same), and a read of a secret file sends the
 * secret to the model's provider. No VS Code here: the runner and the tools use it in plain node.
 *
 * Matching is by path segment and case-insensitive: on macOS and Windows `.HUSKY/x` is `.husky/x`.
 */
import { isSecretPath, writeKind, type WriteKind } from '../../../shared/sensitiveFiles';

/** Why a call must ask the user each time. */
export type GuardKind = WriteKind | 'untrustedWorkspace';

/** The card warnings in English (the VS Code layer passes localised ones). */
export const GUARD_WARNINGS: Record<GuardKind, string> = {
  workspaceConfig: 'This file configures your workspace: its settings take effect as soon as it is written.',
  rules: 'This is a rules file: its text goes into the instructions of every later request.',
  runsCode: 'This file runs code: git hooks, dev containers, CI workflows or direnv execute what it says.',
  steersAgents:
    'This file steers coding agents: their settings, instructions, commands, skills, hooks or MCP servers, followed or run in later sessions.',
  secrets: 'This file may contain secrets (keys, tokens, passwords); what is read is sent to the model.',
  untrustedWorkspace:
    "This workspace is not trusted (Restricted Mode): tools ask every time, and the folder's own configuration (git config, npm scripts) can run code when a command runs.",
};

/**
 * Why writing `relative` (root-relative, `/` or `\` separated) must ask every time, or undefined.
 * The list is the shared one (../../../shared/sensitiveFiles), so completion, commit messages and
 * mentions judge the same names. Secret files count too: an edit's result shows the model the
 * lines around the change.
 */
export function writeGuard(relative: string): GuardKind | undefined {
  return writeKind(relative);
}

/** Why reading `relative` must ask every time (it may hold secrets), or undefined. */
export function readGuard(relative: string): GuardKind | undefined {
  return isSecretPath(relative) ? 'secrets' : undefined;
}

/** Whether `relative` names a file that may hold secrets: keys, tokens, passwords. */
export const isSecretFile = isSecretPath;

/**
 * Whether JSON text names a remote schema (`"$schema": "https://…"`). VS Code's JSON support
 * downloads such a schema as soon as the document is open, which is a request to a host the
 * file's author chose; a plain text test, so JSON with comments counts too.
 */
export function hasRemoteSchema(text: string): boolean {
  return /"\$schema"\s*:\s*"\s*https?:/i.test(text);
}

/** File names whose documents VS Code treats as JSON (schemas apply to them). */
export function isJsonName(relative: string): boolean {
  return /\.(json|jsonc|json5|code-workspace)$/i.test(relative);
}
