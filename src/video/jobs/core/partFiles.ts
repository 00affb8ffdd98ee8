/**
 * Leftover temporary download files. A download writes `.<name>.<8 hex>.part` beside its target and
 * removes it on any failure it sees, but a window that dies mid-download leaves it behind, hidden,
 * in the user's videos folder. These helpers remove such files for one task, and nothing else.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { partFileTarget } from '../../../files/partFileNames';

/** The idle timeout downloads run with when none is given: the HTTP client's default (120 s). */
export const DEFAULT_DOWNLOAD_IDLE_MS = 120_000;

/**
 * Slack on top of the idle timeout before a silent `.part` counts as abandoned: the watchdog fires
 * a little after the timeout, a write may be in flight, and file times are coarse on some disks.
 */
export const PART_STALE_MARGIN_MS = 30_000;

/**
 * How long a `.part` file must have gone unmodified before it is removed, for downloads whose
 * stream idle timeout (`gatewayStudio.network.streamIdleTimeoutSeconds`) is `idleTimeoutMs`. A live
 * download, in this window or another one of the same workspace, writes to its file at least once
 * per idle-timeout period or is aborted by the client's watchdog (which removes the file itself);
 * so a file silent for longer than that plus {@link PART_STALE_MARGIN_MS} belongs to no running
 * download. A value that is not a positive finite number falls back to {@link DEFAULT_DOWNLOAD_IDLE_MS}.
 */
export function partStaleAfterMs(idleTimeoutMs: number | undefined): number {
  const idle =
    idleTimeoutMs !== undefined && Number.isFinite(idleTimeoutMs) && idleTimeoutMs > 0
      ? idleTimeoutMs
      : DEFAULT_DOWNLOAD_IDLE_MS;
  return idle + PART_STALE_MARGIN_MS;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Removes the temporary files that downloads of the task with file stem `stem` left in `dir`:
 * only regular files named exactly as a download into `<stem>.mp4` or `<stem>-N.mp4` (the names
 * `freeName` picks) creates them, and only when unmodified for `olderThanMs`. Other files, other
 * tasks' files, directories and links are never touched. Never throws (a missing folder or a file
 * that vanished meanwhile is no problem); resolves with the paths it removed.
 */
export async function removeStalePartFiles(
  dir: string,
  stem: string,
  o: { olderThanMs: number; now?: number },
): Promise<string[]> {
  const target = new RegExp(`^${escapeRegExp(stem)}(?:-[1-9][0-9]{0,3})?\\.mp4$`);
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return [];
  }
  const now = o.now ?? Date.now();
  const removed: string[] = [];
  for (const name of names) {
    const dest = partFileTarget(name);
    if (dest === undefined || !target.test(dest)) continue;
    const file = path.join(dir, name);
    try {
      const st = await fs.lstat(file);
      if (!st.isFile()) continue;
      if (now - st.mtimeMs < o.olderThanMs) continue;
      await fs.unlink(file);
      removed.push(file);
    } catch {
      // Gone already (another window swept it, or its download finished), or not ours to remove.
    }
  }
  return removed;
}
