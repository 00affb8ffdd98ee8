/**
 * Whether a hook file may run now. A workspace's hooks run shell commands the repository chose, so
 * they run only in a trusted workspace and only after the user approved that file's exact content
 * (its sha256, kept per path in global state): a changed file is asked about again. The user's own
 * files (`~/.claude/settings.json`, `~/.copilot/hooks`) always run.
 */
import { createHash } from 'node:crypto';
import type { ParsedHookFile } from './hookFile';

export function hookFileHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
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
