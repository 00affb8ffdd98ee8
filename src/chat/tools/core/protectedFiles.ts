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

/** Why a call must ask the user each time. */
export type GuardKind = 'workspaceConfig' | 'rules' | 'runsCode' | 'secrets' | 'untrustedWorkspace';

/** The card warnings in English (the VS Code layer passes localised ones). */
export const GUARD_WARNINGS: Record<GuardKind, string> = {
  workspaceConfig: 'This file configures your workspace: its settings take effect as soon as it is written.',
  rules: 'This is a rules file: its text goes into the instructions of every later request.',
  runsCode: 'This file runs code: git hooks, dev containers, CI workflows or direnv execute what it says.',
  secrets: 'This file may contain secrets (keys, tokens, passwords); what is read is sent to the model.',
  untrustedWorkspace:
    "This workspace is not trusted (Restricted Mode): tools ask every time, and the folder's own configuration (git config, npm scripts) can run code when a command runs.",
};

/**
 * The rules files the chat puts into the system message of every request (read by
 * `chat/prompt/vscode/rules.ts`): `AGENTS.md` at a folder's root (and nested ones, for files mentioned
 * below them), `.github/copilot-instructions.md`, and `*.md` in `.gatewaystudio/rules/`.
 */
export const RULES_FILES = {
  agents: 'AGENTS.md',
  copilot: ['.github', 'copilot-instructions.md'],
  rulesFolder: ['.gatewaystudio', 'rules'],
  /** The same list as a VS Code glob relative to a workspace folder (the chips' watcher). */
  watchGlob: '{AGENTS.md,.github/copilot-instructions.md,.gatewaystudio/rules/*.md}',
} as const;

/** Folders whose files run code when git, a dev container or CI uses them. */
const CODE_DIRS: readonly (readonly string[])[] = [
  ['.husky'],
  ['.githooks'],
  ['.devcontainer'],
  ['.github', 'workflows'],
];
/** Single files that run code or fetch code: submodule URLs, direnv, a root dev container. */
const CODE_FILES = new Set(['.gitmodules', '.envrc', '.devcontainer.json']);

/**
 * Why writing `relative` (root-relative, `/` or `\` separated) must ask every time, or undefined.
 * Secret files count too: an edit's result shows the model the lines around the change.
 */
export function writeGuard(relative: string): GuardKind | undefined {
  const segs = segments(relative);
  const base = segs.at(-1) ?? '';
  if (base.endsWith('.code-workspace')) return 'workspaceConfig';
  if (isRulesFile(segs)) return 'rules';
  if (CODE_FILES.has(base) || CODE_DIRS.some((d) => containsRun(segs.slice(0, -1), d))) return 'runsCode';
  return readGuard(relative);
}

/** Why reading `relative` must ask every time (it may hold secrets), or undefined. */
export function readGuard(relative: string): GuardKind | undefined {
  return isSecretFile(relative) ? 'secrets' : undefined;
}

/** Whether `relative` names a file that may hold secrets: keys, tokens, passwords. */
export function isSecretFile(relative: string): boolean {
  const segs = segments(relative);
  const base = segs.at(-1) ?? '';
  if (segs.slice(0, -1).some((s) => SECRET_DIRS.has(s))) return true;
  if (SECRET_NAMES.has(base)) return true;
  if (base.startsWith('.env.') || base.startsWith('credentials')) return true;
  // OpenSSH keys: id_rsa, id_ed25519, id_ecdsa_sk (the `.pub` halves are public).
  if (/^id_[a-z0-9_]+$/.test(base)) return true;
  const dot = base.lastIndexOf('.');
  return dot > 0 && SECRET_EXTENSIONS.has(base.slice(dot + 1));
}

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

const SECRET_NAMES = new Set([
  '.env',
  '.npmrc',
  '.yarnrc.yml',
  '.netrc',
  '_netrc',
  '.pypirc',
  '.pgpass',
  '.htpasswd',
  '.git-credentials',
  '.dockercfg',
]);
const SECRET_EXTENSIONS = new Set(['pem', 'key', 'p12', 'pfx', 'keystore', 'jks', 'ppk', 'kdbx']);
/** Folders that hold keys and cloud credentials wholesale. */
const SECRET_DIRS = new Set(['.ssh', '.aws', '.gnupg']);

function segments(relative: string): string[] {
  return relative
    .toLowerCase()
    .split(/[\\/]+/)
    .filter((s) => s !== '' && s !== '.');
}

function isRulesFile(segs: readonly string[]): boolean {
  const lower = (xs: readonly string[]) => xs.map((x) => x.toLowerCase());
  const base = segs.at(-1) ?? '';
  if (base === RULES_FILES.agents.toLowerCase()) return true;
  if (segs.join('/') === lower(RULES_FILES.copilot).join('/')) return true;
  return containsRun(segs.slice(0, -1), lower(RULES_FILES.rulesFolder));
}

/** Whether `run` occurs in `segs` as consecutive segments. */
function containsRun(segs: readonly string[], run: readonly string[]): boolean {
  for (let i = 0; i + run.length <= segs.length; i++) if (run.every((r, j) => segs[i + j] === r)) return true;
  return false;
}
