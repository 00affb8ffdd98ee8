/**
 * What git ignores besides `.gitignore` files, for inline completion's eligibility: the
 * repository's `.git/info/exclude` and the excludes file `core.excludesFile` names (default
 * `$XDG_CONFIG_HOME/git/ignore`, else `~/.config/git/ignore`). People list private files there
 * precisely because they are not to be shared with the repository, so completion sends them no
 * more than it sends a `.gitignore`d file. Plain node: files are read with bounds, since a
 * repository's own config may name any path (a FIFO would block, a device would never end).
 */
import { promises as fs, constants } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gitignoreMatcher } from '../../../shared/gitignore';

/** Larger files are not read (no exclude or config file is this big). */
const MAX_BYTES = 256 * 1024;

/** A repository found above a file: its work tree and the directory holding `info/` and `config`. */
export interface GitRepo {
  root: string;
  commonDir: string;
}

/** Where git reads its settings and home from (the process's by default; tests pass their own). */
export interface GitEnvironment {
  home: string;
  xdgConfigHome?: string;
}

export function processGitEnvironment(): GitEnvironment {
  const xdg = process.env['XDG_CONFIG_HOME'];
  return { home: os.homedir(), ...(xdg ? { xdgConfigHome: xdg } : {}) };
}

/**
 * The repository `dir` lies in: the nearest folder upwards with a `.git` folder, or a `.git` file
 * (`gitdir: …`, a worktree or submodule, whose shared folder `commondir` names).
 */
export async function findRepo(dir: string): Promise<GitRepo | undefined> {
  for (let cur = path.resolve(dir); ; cur = path.dirname(cur)) {
    const dotGit = path.join(cur, '.git');
    const st = await fs.stat(dotGit).catch(() => undefined);
    if (st?.isDirectory()) return { root: cur, commonDir: dotGit };
    if (st?.isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec((await readBounded(dotGit)) ?? '');
      if (m) {
        const gitDir = path.resolve(cur, m[1]!);
        const common = (await readBounded(path.join(gitDir, 'commondir')))?.trim();
        return { root: cur, commonDir: common ? path.resolve(gitDir, common) : gitDir };
      }
    }
    if (path.dirname(cur) === cur) return undefined;
  }
}

/**
 * `core.excludesFile` as git would settle it: system, then user (XDG, then `~/.gitconfig`), then
 * the repository's config, the last one set winning; the XDG default when none sets it.
 */
export async function excludesFilePath(repo: GitRepo | undefined, env: GitEnvironment): Promise<string> {
  const xdg = env.xdgConfigHome ?? path.join(env.home, '.config');
  const configs = [
    '/etc/gitconfig',
    path.join(xdg, 'git', 'config'),
    path.join(env.home, '.gitconfig'),
    ...(repo ? [path.join(repo.commonDir, 'config')] : []),
  ];
  let chosen: string | undefined;
  for (const c of configs) {
    const text = await readBounded(c);
    const v = text === undefined ? undefined : configValue(text, 'core', 'excludesfile');
    if (v !== undefined) chosen = v;
  }
  if (chosen === undefined || chosen === '') return path.join(xdg, 'git', 'ignore');
  return chosen.startsWith('~/') ? path.join(env.home, chosen.slice(2)) : path.resolve(env.home, chosen);
}

/**
 * Whether git's exclude files ignore `file` (absolute): `info/exclude` of its repository and the
 * global excludes file, with paths relative to the repository's root (to `fallbackRoot` outside
 * any repository, where only the global file applies).
 */
export async function gitExcludeMatcher(
  dir: string,
  fallbackRoot: string,
  env: GitEnvironment = processGitEnvironment(),
): Promise<(file: string) => boolean> {
  const repo = await findRepo(dir);
  const sources = [await readBounded(await excludesFilePath(repo, env))];
  if (repo) sources.push(await readBounded(path.join(repo.commonDir, 'info', 'exclude')));
  const text = sources.filter((s): s is string => s !== undefined).join('\n');
  if (text.trim() === '') return () => false;
  const match = gitignoreMatcher(text);
  const base = repo?.root ?? fallbackRoot;
  return (file) => {
    const rel = path.relative(base, file);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
    return match(rel.split(path.sep).join('/'));
  };
}

/** The value of `key` in `[section]` of git config text (case-insensitive names), or undefined. */
export function configValue(text: string, section: string, key: string): string | undefined {
  let inSection = false;
  let value: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const head = /^\[\s*([^\]\s"]+)\s*(?:"[^"]*")?\s*\]\s*(.*)$/.exec(line);
    if (head) {
      inSection = head[1]!.toLowerCase() === section && !/"/.test(line);
      if (!head[2]) continue;
    }
    if (!inSection) continue;
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(head ? head[2]! : line);
    if (kv && kv[1]!.toLowerCase() === key) value = unquoteValue(kv[2]!);
  }
  return value;
}

/** A config value without its comment and quotes (`"a b" ; note` -> `a b`). */
function unquoteValue(v: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '#' || c === ';')) break;
    else if (c === '\\' && i + 1 < v.length) out += v[++i] === 't' ? '\t' : v[i];
    else out += c;
  }
  return out.trim();
}

/** A regular file's text, or undefined: never waits on a FIFO nor reads past the bound. */
async function readBounded(file: string): Promise<string | undefined> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const st = await handle.stat();
    if (!st.isFile() || st.size > MAX_BYTES) return undefined;
    return (await handle.readFile()).toString('utf8');
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}
