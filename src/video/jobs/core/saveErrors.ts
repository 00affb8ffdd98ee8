/**
 * The words for a video that could not be written to its folder. Without them a full disk read
 * "Unexpected error: ENOSPC: no space left on device, write", which says neither where nor what to
 * do; the task itself is fine (the video waits on the gateway), so the advice is to make room or
 * pick another folder and resume.
 */
import * as l10n from '@vscode/l10n';
import type { VideoTaskError } from './record';

/** File-system codes that mean "this folder cannot take the video", as opposed to a bug. */
const FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);
const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * The task error for a failed write into `folder`, or undefined when `err` is not one of the
 * file-system failures above (then the caller's general words apply).
 */
export function saveError(err: unknown, folder: string | undefined): VideoTaskError | undefined {
  // Only the system's own errors (they name a syscall); a gateway error's `code` is the wire's.
  if (!(err instanceof Error) || !('syscall' in err)) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return undefined;
  const where = folder ?? l10n.t('the output folder');
  if (FULL.has(code)) {
    return {
      kind: 'disk_full',
      title: l10n.t('Not saved: the disk is full'),
      detail: l10n.t(
        'There is not enough free space in {0} for the video ({1}). Nothing partial was kept, and the video is still on the gateway: free some space or choose another output folder (gatewayStudio.video.outputFolder), then resume the task.',
        where,
        code,
      ),
    };
  }
  if (UNWRITABLE.has(code)) {
    return {
      kind: 'unwritable',
      title: l10n.t('Not saved: the output folder cannot be written'),
      detail: l10n.t(
        '{0} refuses new files ({1}). The video is still on the gateway: make the folder writable or choose another output folder (gatewayStudio.video.outputFolder), then resume the task.',
        where,
        code,
      ),
    };
  }
  return undefined;
}
