// The names of temporary download files, apart from the download itself: the job manager's
// cleanup needs them at activation, the download code only when a video is fetched.
import { randomBytes } from 'node:crypto';

/** `.<name>.<8 hex>.part`: a download into `<dir>/<name>` writes here first, beside the target. */
export function partFileName(destName: string): string {
  return `.${destName}.${randomBytes(4).toString('hex')}.part`;
}

/**
 * The destination name a temporary download file was made for (see {@link partFileName}), or
 * undefined when `fileName` is not such a file. Cleanup matches on this, never on a looser pattern.
 */
export function partFileTarget(fileName: string): string | undefined {
  return /^\.(.+)\.[0-9a-f]{8}\.part$/.exec(fileName)?.[1];
}
