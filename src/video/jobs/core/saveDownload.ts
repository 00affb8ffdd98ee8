// The file half of a video download: the client (api/video/videoDownload.ts) streams into the
// sink made here, which writes a temporary file beside the target and links it into place.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { GatewayError } from '../../../api/transport/errors';
import type { SinkHooks, VideoDownloadOptions, VideoSink, VideoSinkFactory } from '../../../api/video/videoDownload';
import { partFileName } from '../../../files/partFileNames';
import { WriteBehind } from '../../../files/writeBehind';

/** The client's download as the job calls it (`VideoClient.download` fits): into the sinks `sinkFor` makes. */
export type VideoDownload = (
  idOrUrl: string,
  sinkFor: VideoSinkFactory,
  opts?: VideoDownloadOptions,
) => Promise<{ file: string; bytes: number }>;

/**
 * The sinks of a download to `destFile`: each writes a temporary file beside it (its name from
 * files/partFileNames, which cleanup knows), then links it into place without overwriting (an
 * existing `destFile` fails with `EEXIST`). Nothing is left behind on failure.
 */
export function saveTo(destFile: string): VideoSinkFactory {
  return (shown) => new PartFileSink(destFile, shown);
}

class PartFileSink implements VideoSink {
  private readonly temp: string;
  private opening: Promise<fs.FileHandle> | undefined;
  private fh: fs.FileHandle | undefined;
  private closed = false;

  constructor(
    private readonly destFile: string,
    private readonly shown: string,
  ) {
    this.temp = path.join(path.dirname(destFile), partFileName(path.basename(destFile)));
  }

  open(): Promise<void> {
    this.opening = fs.open(this.temp, 'wx');
    return this.opening.then((fh) => {
      this.fh = fh;
    });
  }

  writer(position: number, hooks: SinkHooks): WriteBehind {
    if (!this.fh) throw new Error('the download wrote before its file was open');
    return new WriteBehind(this.fh, { position, check: hooks.check, onWritten: hooks.onWritten });
  }

  async keep(bytes: number): Promise<string> {
    const fh = this.fh!;
    // After a restart the file may be longer than the video written over its start.
    await fh.truncate(bytes);
    await fh.sync();
    await fh.close();
    this.closed = true;
    // link() refuses an existing target, unlike rename(): a file the user has is never replaced.
    try {
      await fs.link(this.temp, this.destFile);
    } catch (err) {
      // The open handle kept writing into a file someone removed meanwhile (a sweep, a user
      // tidying the folder): the bytes are gone with it, so this is a download to do again.
      if (errnoCode(err) === 'ENOENT') throw partFileGone(this.shown, path.basename(this.temp), bytes, err);
      throw err;
    }
    await fs.unlink(this.temp).catch(() => undefined);
    return this.destFile;
  }

  async dispose(): Promise<void> {
    // Only a file this download made is removed.
    const fh = await this.opening?.catch(() => undefined);
    if (!fh) return;
    if (!this.closed) await fh.close().catch(() => undefined);
    this.closed = true;
    await fs.unlink(this.temp).catch(() => undefined);
  }
}

function errnoCode(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}

/** The temporary file vanished before it could be linked into place: retryable, like a cut transfer. */
function partFileGone(p: string, partName: string, received: number, cause: unknown): GatewayError {
  return new GatewayError(
    'truncated',
    l10n.t(
      'The download of {0} was interrupted: its temporary file {1} was removed (by another window or program) after {2} bytes, before the video could be saved.',
      p,
      partName,
      received,
    ),
    {
      path: p,
      retryable: true,
      cause,
      advice: 'resumeDownload',
    },
  );
}
