/**
 * Opening clips for the webview's media work (re-encode, GIF): mediabunny reads the container and
 * decodes through WebCodecs. A clip that cannot be opened or decoded raises
 * {@link UndecodableClipError} naming it, so the panel can mark that clip.
 */
import { BufferSource, Input, MP4, QTFF, WEBM, type InputVideoTrack } from 'mediabunny';
import { UndecodableClipError } from './lastFrame';

export interface OpenClip {
  index: number;
  input: Input;
  track: InputVideoTrack;
  start: number;
  duration: number;
  width: number;
  height: number;
}

/** An {@link UndecodableClipError} that also says which clip (0-based index). */
export class ClipError extends UndecodableClipError {
  constructor(
    readonly index: number,
    reason: string,
  ) {
    super(`clip ${index + 1}: ${reason}`);
  }
}

const why = (err: unknown) => (err instanceof Error ? err.message : String(err));

export async function openClip(bytes: ArrayBuffer, index: number): Promise<OpenClip> {
  const input = new Input({ formats: [MP4, QTFF, WEBM], source: new BufferSource(bytes) });
  try {
    const track = await input.getPrimaryVideoTrack();
    if (!track) throw new ClipError(index, 'it has no video track');
    if (!(await track.canDecode())) {
      throw new ClipError(index, `this browser cannot decode its codec (${track.codec ?? 'unknown'})`);
    }
    const start = await track.getFirstTimestamp();
    const duration = (await track.computeDuration()) - start;
    if (!(duration > 0)) throw new ClipError(index, 'it holds no frames');
    const width = await track.getDisplayWidth();
    const height = await track.getDisplayHeight();
    return { index, input, track, start, duration, width, height };
  } catch (err) {
    input.dispose();
    if (err instanceof ClipError) throw err;
    throw new ClipError(index, `not a video file this page can read (${why(err)})`);
  }
}

/** Opens every clip or none: on a failure the ones already open are closed. */
export async function openAll(clips: ArrayBuffer[]): Promise<OpenClip[]> {
  const open: OpenClip[] = [];
  try {
    for (let i = 0; i < clips.length; i++) open.push(await openClip(clips[i]!, i));
    return open;
  } catch (err) {
    for (const c of open) c.input.dispose();
    throw err;
  }
}

export function closeAll(clips: OpenClip[]): void {
  for (const c of clips) c.input.dispose();
}

export { why as reasonOf };
