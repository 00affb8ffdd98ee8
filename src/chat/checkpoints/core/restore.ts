import * as l10n from '@vscode/l10n';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { resolveWorkspacePath, ToolPathError, type WorkspaceRoot } from '../../tools/core/paths';

/**
 * A restore: its plan, the operations it makes, and the checks made again when it runs. The
 * stored index and blobs live outside the workspace but are still only data: an index edited to
 * name another file, a workspace folder that became a symbolic link since, or a blob whose
 * content no longer has its name's sha256 must never turn a restore into a write elsewhere.
 */

/**
 * One file of a restore: `ok` (as the tools left it), `changed` (changed since, by the user or
 * something else: restored only when the user says so), `same` (already as before: nothing to
 * do), `unrecorded` (over a limit when recorded: cannot be restored).
 */
export interface PlannedFile {
  absolute: string;
  relative: string;
  status: 'ok' | 'changed' | 'same' | 'unrecorded';
  /** `restore` writes the prior content, `delete` removes a file the answer created, `recreate` writes a file deleted since. */
  action: 'restore' | 'delete' | 'recreate' | 'none';
  /** The content it gets back (undefined: the file did not exist). */
  prior: string | undefined;
  /** The content now (undefined: missing). */
  current: string | undefined;
  /** What will be reverted, `-`/`+` lines from now to the restored content. */
  diff: string;
}

export interface RestorePlan {
  conversationId: string;
  answerId: string;
  files: PlannedFile[];
}

/** One operation of a restore, applied together (in VS Code: one WorkspaceEdit). */
export type RestoreOp =
  | { kind: 'write'; absolute: string; relative: string; content: string; exists: boolean }
  | { kind: 'delete'; absolute: string; relative: string };

/**
 * The operations of a restore: files as the tools left them, files already as before (none),
 * and the changed files the user chose to overwrite (`overwrite`, by absolute path). Changed files
 * not chosen, and files that could not be recorded, are skipped and returned as such.
 */
export function restoreOps(
  plan: RestorePlan,
  overwrite: ReadonlySet<string>,
): { ops: RestoreOp[]; skipped: PlannedFile[] } {
  const ops: RestoreOp[] = [];
  const skipped: PlannedFile[] = [];
  for (const f of plan.files) {
    if (f.status === 'same' || f.action === 'none') {
      if (f.status === 'unrecorded') skipped.push(f);
      continue;
    }
    if (f.status === 'changed' && !overwrite.has(f.absolute)) {
      skipped.push(f);
      continue;
    }
    if (f.action === 'delete') ops.push({ kind: 'delete', absolute: f.absolute, relative: f.relative });
    else
      ops.push({
        kind: 'write',
        absolute: f.absolute,
        relative: f.relative,
        content: f.prior ?? '',
        exists: f.action === 'restore',
      });
  }
  return { ops, skipped };
}

/** Applies restore operations to the disk (plain node; VS Code uses one WorkspaceEdit instead). */
export async function applyOpsToDisk(ops: readonly RestoreOp[]): Promise<void> {
  for (const op of ops) {
    if (op.kind === 'delete') await fs.rm(op.absolute, { force: true });
    else {
      await fs.mkdir(path.dirname(op.absolute), { recursive: true });
      await fs.writeFile(op.absolute, op.content, 'utf8');
    }
  }
}

/** A restore that a check refused as a whole: nothing was written or deleted. */
export class CheckpointRefused extends Error {
  constructor(readonly problems: readonly string[]) {
    super(l10n.t('Restore refused, nothing was changed: {0}', problems.join('; ')));
    this.name = 'CheckpointRefused';
  }
}

/**
 * Checks a stored target again, as it is now: inside a workspace folder, not through a symbolic
 * link that leads out, not in .git/ or .vscode/, and the file the index shows (its relative path)
 * is the one it would write. Returns the problem, or undefined when the target is fine.
 */
export async function targetProblem(
  absolute: unknown,
  relative: unknown,
  roots: readonly WorkspaceRoot[],
): Promise<string | undefined> {
  const shown = typeof relative === 'string' ? relative : String(absolute);
  if (typeof absolute !== 'string' || !path.isAbsolute(absolute) || /^[\\/]{2}/.test(absolute))
    return l10n.t('{0} is not a local path inside the workspace', shown);
  try {
    const resolved = await resolveWorkspacePath(absolute, roots);
    if (typeof relative !== 'string' || resolved.relative !== relative.replace(/\\/g, '/'))
      return l10n.t('{0} is shown as {1} in the checkpoint', resolved.relative, shown);
    return undefined;
  } catch (e) {
    if (e instanceof ToolPathError) return l10n.t('{0} may not be written: {1}', shown, e.message);
    throw e;
  }
}
