/**
 * Whether a hook file may run now. A workspace's hooks run shell commands the repository chose, so
 * they run only in a trusted workspace and only after the user approved that file's exact content
 * (its sha256, kept per path in global state): a changed file is asked about again. The user's own
 * files (`~/.claude/settings.json`, `~/.copilot/hooks`) always run. The approval also covers the
 * workspace scripts its commands name (`./hooks/check.sh`, `"$CLAUDE_PROJECT_DIR"/x.py`): the file
 * is usually one line that runs a script, and a repository that changes only the script must be
 * asked about again too.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { HookCommand, ParsedHookFile } from './hookFile';

/** One workspace file a hook's commands name, as read now (undefined: missing or unreadable). */
export interface HookScript {
  /** Relative to the workspace folder, with `/`. */
  readonly path: string;
  readonly content: string | undefined;
}

/**
 * sha256 of the hook file's text and of each script its commands name. With no script it is the
 * text's own sha256, so an approval of such a file given before scripts were covered still holds.
 */
export function hookFileHash(text: string, scripts: readonly HookScript[] = []): string {
  const h = createHash('sha256').update(text, 'utf8');
  if (scripts.length === 0) return h.digest('hex');
  for (const s of scripts) h.update(`\0${s.path}\0${s.content === undefined ? '\u0001missing' : s.content}`, 'utf8');
  return h.digest('hex');
}

const PROJECT_DIR = /^(?:\$CLAUDE_PROJECT_DIR|\$\{CLAUDE_PROJECT_DIR\})(?=\/|$)/;

/**
 * The files inside `root` that the commands name as paths (a word with a `/`, or starting with
 * `$CLAUDE_PROJECT_DIR`), relative to `root` (or to the command's `cwd`), sorted; words that
 * resolve outside `root` are left out (they are not the repository's to change).
 */
export function hookScriptPaths(commands: readonly Pick<HookCommand, 'command' | 'cwd'>[], root: string): string[] {
  const out = new Set<string>();
  for (const c of commands) {
    const base = c.cwd === undefined ? root : path.resolve(root, c.cwd);
    for (const raw of c.command.split(/[\s;&|()<>]+/)) {
      const word = raw.replace(/["'`]/g, '');
      if (!word.includes('/') || /^[a-z][a-z0-9+.-]*:\/\//i.test(word)) continue;
      const ours = PROJECT_DIR.test(word);
      // Another variable or the home folder: not a path into the repository.
      if (!ours && (word.startsWith('$') || word.startsWith('~'))) continue;
      const abs = ours ? path.join(root, word.replace(PROJECT_DIR, '')) : path.resolve(base, word);
      const rel = path.relative(root, abs);
      if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
      out.add(rel.split(path.sep).join('/'));
    }
  }
  return [...out].sort();
}

export type HookFileVerdict =
  | { run: true; why: 'user' | 'approved' }
  | {
      run: false;
      why: 'invalid' | 'disabled' | 'empty' | 'restricted' | 'notApproved' | 'changed';
      /** Whether to ask the user now (a file not approved, or changed, not declined in this window). */
      ask: boolean;
    };

export interface HookFileFacts {
  scope: 'workspace' | 'user';
  workspaceTrusted: boolean;
  parsed: ParsedHookFile;
  /** sha256 of the file's text as read now. */
  hash: string;
  /** The hash the user approved for this path, if any. */
  approvedHash: string | undefined;
  /** The hash the user declined in this window (not asked again until it changes). */
  declinedHash?: string;
}

export function hookFileVerdict(f: HookFileFacts): HookFileVerdict {
  if (f.parsed.invalid) return { run: false, why: 'invalid', ask: false };
  if (f.parsed.disabled) return { run: false, why: 'disabled', ask: false };
  if (f.parsed.commands.length === 0) return { run: false, why: 'empty', ask: false };
  if (f.scope === 'user') return { run: true, why: 'user' };
  // Restricted Mode comes before approval: an approval given earlier does not bring them back.
  if (!f.workspaceTrusted) return { run: false, why: 'restricted', ask: false };
  if (f.approvedHash === f.hash) return { run: true, why: 'approved' };
  return { run: false, why: f.approvedHash === undefined ? 'notApproved' : 'changed', ask: f.declinedHash !== f.hash };
}
