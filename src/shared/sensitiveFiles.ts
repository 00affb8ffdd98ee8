/**
 * The one list of workspace files that need the user's say-so: files whose content may be a
 * secret (a read asks every time; inline completion, commit messages and @changes never send
 * them) and files that steer the editor, agents, hooks or CI (a write asks every time and never
 * becomes trust). Every tool, mention, completion and diff path asks this module, so a name added
 * here counts everywhere. Pure and VS Code-free: the chat's tools, the completion provider and the
 * Source Control button are different features and meet only here.
 *
 * Paths are root-relative, `/` or `\` separated. Matching is by path segment and case-insensitive
 * (on macOS and Windows `.ENV` is `.env`), and a segment is read the way Windows reads it: a
 * trailing dot or space is dropped (`.env.` is `.env`), an alternate data stream names its file
 * (`.env::$DATA` is `.env`), and an 8.3 short name (`ENV~1`) could be any file, so it counts as
 * a secret.
 */

/** Why a write must ask each time (the card's warning says which). */
export type WriteKind = 'workspaceConfig' | 'rules' | 'runsCode' | 'steersAgents' | 'secrets';

/**
 * The rules and instructions files the chat puts into the system message (read by
 * `chat/prompt/vscode/rules.ts` from the one list of prompt sources,
 * `chat/prompt/core/promptSources.ts`; its unit test checks that every place it reads is named
 * here): file names read at a folder's root and nested below it, root-relative paths, and
 * folders whose files are rules. A write to any of them asks every time as a rules file.
 */
export const RULES_FILES = {
  names: ['AGENTS.md', 'CLAUDE.md', 'CLAUDE.local.md'],
  paths: [
    ['.github', 'copilot-instructions.md'],
    ['.claude', 'CLAUDE.md'],
  ],
  folders: [
    ['.gatewaystudio', 'rules'],
    ['.github', 'instructions'],
    ['.claude', 'rules'],
  ],
} as const;

/** Folders (a run of segments, at any depth) whose files run code: hooks, dev containers, CI. */
const CODE_DIRS: readonly (readonly string[])[] = [
  ['.husky'],
  ['.githooks'],
  ['.devcontainer'],
  ['.github', 'workflows'],
  ['.circleci'],
  ['.buildkite'],
];
/** Single files that run or fetch code: submodule URLs, direnv, git hook managers, CI pipelines. */
const CODE_FILES = new Set([
  '.gitmodules',
  '.envrc',
  '.devcontainer.json',
  '.pre-commit-config.yaml',
  'lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yml',
  '.lefthook.yaml',
  'lefthook-local.yml',
  '.gitlab-ci.yml',
  'jenkinsfile',
  'azure-pipelines.yml',
]);
/**
 * Folders whose files coding agents (this one or another the user runs) take as settings,
 * instructions, commands, skills, hooks or MCP servers: a write there steers every later session.
 * `.vscode/` is here for `.vscode/mcp.json`, though the tools refuse `.vscode/` outright anyway.
 */
const AGENT_DIRS: readonly (readonly string[])[] = [
  ['.claude'],
  ['.cursor'],
  ['.agents'],
  ['.gatewaystudio'],
  ['.github', 'hooks'],
  ['.github', 'agents'],
  ['.github', 'prompts'],
  ['.github', 'instructions'],
  ['.github', 'skills'],
];
/** Single files agents read as instructions or MCP server lists. */
const AGENT_FILES = new Set(['.mcp.json', 'claude.md', 'claude.local.md', '.cursorrules']);
const AGENT_PATHS: readonly (readonly string[])[] = [['.vscode', 'mcp.json']];

/** Names (whole, lower case) of files that hold credentials. */
const SECRET_NAMES = new Set([
  '.env',
  '.envrc',
  '.npmrc',
  '.yarnrc.yml',
  '.netrc',
  '_netrc',
  '.pypirc',
  '.pgpass',
  '.htpasswd',
  '.git-credentials',
  '.dockercfg',
  'kubeconfig',
]);
/** Extensions of key stores, certificates with keys, password databases and env files. */
const SECRET_EXTENSIONS = new Set(['env', 'pem', 'key', 'p12', 'pfx', 'keystore', 'jks', 'ppk', 'kdbx', 'kubeconfig']);
/** Folders that hold keys and cloud credentials wholesale. */
const SECRET_DIRS = new Set(['.ssh', '.aws', '.gnupg', '.kube']);

/**
 * The lists as users should read them (the README's Security section and the tests quote this):
 * globs over root-relative paths, any depth unless they start with `/`, case-insensitive.
 */
export const PATTERNS_FOR_PEOPLE = {
  secrets: [
    '.env, *.env, .env.*',
    '.envrc',
    '*.tfstate, *.tfstate.* (Terraform state)',
    'kubeconfig, kubeconfig.*, *.kubeconfig, .kube/**',
    '.npmrc, .yarnrc.yml, .netrc, _netrc, .pypirc, .pgpass, .htpasswd, .git-credentials, .dockercfg',
    'credentials, credentials.*',
    'id_* (OpenSSH private keys such as id_rsa, id_ed25519; not id_*.pub)',
    '*.pem, *.key, *.p12, *.pfx, *.keystore, *.jks, *.ppk, *.kdbx',
    '.ssh/**, .aws/**, .gnupg/**',
  ],
  writesAsk: [
    '*.code-workspace',
    'AGENTS.md, CLAUDE.md, CLAUDE.local.md, .github/copilot-instructions.md, .github/instructions/**, .claude/rules/**, .gatewaystudio/** (rules and instructions files, and this extension’s own folder)',
    '.claude/**, .cursor/**, .agents/**, .cursorrules',
    '.mcp.json, .vscode/mcp.json (the tools refuse all of .vscode/ anyway)',
    '.github/{workflows,hooks,agents,prompts,instructions,skills}/**',
    '.husky/**, .githooks/**, .pre-commit-config.yaml, lefthook.yml (and .yaml, .lefthook.yml, lefthook-local.yml)',
    '.devcontainer/**, .devcontainer.json, .gitmodules, .envrc',
    '.gitlab-ci.yml, .circleci/**, Jenkinsfile, azure-pipelines.yml, .buildkite/**',
    'every secret file above',
  ],
} as const;

/** Whether `relative` names a file whose content may be a secret: keys, tokens, passwords. */
export function isSecretPath(relative: string): boolean {
  const segs = segments(relative);
  if (segs.some(isShortName)) return true;
  const base = segs.at(-1) ?? '';
  if (segs.slice(0, -1).some((s) => SECRET_DIRS.has(s))) return true;
  if (SECRET_NAMES.has(base)) return true;
  if (base.startsWith('.env.') || base.startsWith('credentials') || base.startsWith('kubeconfig.')) return true;
  // Terraform state holds every resource's secrets in clear: terraform.tfstate, *.tfstate.backup.
  if (/\.tfstate(\.|$)/.test(base)) return true;
  // OpenSSH keys: id_rsa, id_ed25519, id_ecdsa_sk (the `.pub` halves are public).
  if (/^id_[a-z0-9_]+$/.test(base)) return true;
  const dot = base.lastIndexOf('.');
  return dot > 0 && SECRET_EXTENSIONS.has(base.slice(dot + 1));
}

/** Why writing `relative` must ask every time, or undefined. Secret files count too. */
export function writeKind(relative: string): WriteKind | undefined {
  const segs = segments(relative);
  const base = segs.at(-1) ?? '';
  const dirs = segs.slice(0, -1);
  if (base.endsWith('.code-workspace')) return 'workspaceConfig';
  if (isRulesFile(segs)) return 'rules';
  if (CODE_FILES.has(base) || CODE_DIRS.some((d) => containsRun(dirs, d))) return 'runsCode';
  if (AGENT_FILES.has(base) || AGENT_DIRS.some((d) => containsRun(dirs, d))) return 'steersAgents';
  if (AGENT_PATHS.some((p) => endsWithRun(segs, p))) return 'steersAgents';
  return isSecretPath(relative) ? 'secrets' : undefined;
}

/** Lower-case segments read as Windows reads them (see the file comment). */
function segments(relative: string): string[] {
  return relative
    .toLowerCase()
    .split(/[\\/]+/)
    .map((s) => stripWindowsTail(s.replace(/:.*$/, '')))
    .filter((s) => s !== '' && s !== '.' && s !== '..');
}

/** `.env.` and `.env ` are `.env` on Windows; `.` and `..` stay as they are. */
function stripWindowsTail(seg: string): string {
  if (seg === '.' || seg === '..') return seg;
  return seg.replace(/[. ]+$/, '');
}

/** An 8.3 short name (`PROGRA~1`, `ENV~1.TXT`): Windows may map it to any long name. */
function isShortName(seg: string): boolean {
  const dot = seg.lastIndexOf('.');
  return /~\d+$/.test(dot > 0 ? seg.slice(0, dot) : seg);
}

function isRulesFile(segs: readonly string[]): boolean {
  const lower = (xs: readonly string[]) => xs.map((x) => x.toLowerCase());
  const base = segs.at(-1) ?? '';
  if (RULES_FILES.names.some((n) => n.toLowerCase() === base)) return true;
  if (RULES_FILES.paths.some((p) => endsWithRun(segs, lower(p)))) return true;
  return RULES_FILES.folders.some((f) => containsRun(segs.slice(0, -1), lower(f)));
}

/** Whether `run` occurs in `segs` as consecutive segments. */
function containsRun(segs: readonly string[], run: readonly string[]): boolean {
  for (let i = 0; i + run.length <= segs.length; i++) if (run.every((r, j) => segs[i + j] === r)) return true;
  return false;
}

function endsWithRun(segs: readonly string[], run: readonly string[]): boolean {
  return segs.length >= run.length && run.every((r, j) => segs[segs.length - run.length + j] === r);
}
