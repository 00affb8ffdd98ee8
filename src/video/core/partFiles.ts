/**
 * Leftover temporary download files. A download writes `.<name>.<8 hex>.part` beside its target and
 * removes it on any failure it sees, but a window that dies mid-download leaves it behind, hidden,
 * in the user's videos folder. These helpers remove such files for one task, and nothing else.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { partFileTarget } from '../../api/video';

/**
 * A `.part` file modified more recently than this may belong to a download still running in
 * another window of the same workspace: a live transfer writes to its file continuously, and one
 * silent this long has reached the client's default idle timeout (120 s) and is being given up.
 */
export const STALE_PART_MS = 2 * 60_000;

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
export async function removeStalePartFiles(dir: string, stem: string, o: { olderThanMs: number; now?: number }): Promise<string[]> {
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
