/**
 * The persisted form of a video task and the store it lives in. A record is written after every
 * transition, so a fresh job built from it (after a window reload or a restart) continues where the
 * old one stopped, and never creates the task a second time.
 */
import type { VideoOutcome } from '../../../api/video/videoStatus';

/**
 * - `creating`: the creation POST is about to be or is being sent. A record found in this state
 *   at start-up cannot tell whether the gateway created the task, so it is never resent.
 * - `polling`: the id is known; status checks are running.
 * - `timed_out`: the poll limit was reached while the task was still running ("check later").
 * - `paused`: the user stopped watching.
 * - `downloading`: the task completed; the content is being saved.
 * - `saved`: the video is in the workspace (final).
 * - `failed`: the gateway says failed, cancelled or expired (final).
 * - `error`: something on our side or the way went wrong (404 id, key refused, bad download);
 *   resumable when an id is known.
 */
export type VideoTaskState =
  'creating' | 'polling' | 'timed_out' | 'paused' | 'downloading' | 'saved' | 'failed' | 'error';

/** States in which a job is (or should be, after a restart) doing something. */
export const ACTIVE_STATES: readonly VideoTaskState[] = ['creating', 'polling', 'downloading'];

/** What was asked, as recorded (reference images only by label: data URLs are never stored). */
export interface VideoTaskRequest {
  model: string;
  prompt: string;
  seconds?: number;
  aspect_ratio?: string;
  resolution?: string;
  /** File names or URLs of the reference images. */
  images: string[];
}

export interface VideoTaskError {
  kind: string;
  title: string;
  detail: string;
  status?: number;
}

export interface VideoTaskRecord {
  v: 1;
  /** Local key, known before the gateway gives an id. */
  key: string;
  state: VideoTaskState;
  request: VideoTaskRequest;
  warnings: string[];
  videoId?: string;
  /** Last status string from the gateway and its progress (0-100). */
  status?: string;
  progress?: number;
  outcome?: VideoOutcome;
  failReason?: string;
  resultUrl?: string;
  /** Polls in the current round (reset by Resume). */
  polls: number;
  /** Transient failures (network, 5xx, 429) seen while polling, for the details view. */
  transientErrors: number;
  createdAt: number;
  updatedAt: number;
  finishedAt?: number;
  /** The folder the download went (or goes) to, known from its start: where leftovers are swept. */
  saveDir?: string;
  file?: string;
  sidecar?: string;
  bytes?: number;
  error?: VideoTaskError;
  /**
   * The gateway profile the task was started on: it is polled and downloaded with that profile's
   * address and key for as long as it runs, whatever profile is active. Absent: Default (tasks
   * from before profiles).
   */
  profile?: string;
}

/** Where records are kept. The extension uses workspace state; tests use {@link MemoryTaskStore}. */
export interface VideoTaskStore {
  load(): VideoTaskRecord[];
  save(record: VideoTaskRecord): Promise<void>;
  remove(key: string): Promise<void>;
}

/** A store in memory that copies on every write, so a test can build a fresh job from it. */
export class MemoryTaskStore implements VideoTaskStore {
  private readonly map = new Map<string, string>();
  /** Every record written, in order, as copies: lets tests assert the sequence of states. */
  readonly writes: VideoTaskRecord[] = [];

  load(): VideoTaskRecord[] {
    return [...this.map.values()].map((s) => JSON.parse(s) as VideoTaskRecord);
  }

  save(record: VideoTaskRecord): Promise<void> {
    const text = JSON.stringify(record);
    this.map.set(record.key, text);
    this.writes.push(JSON.parse(text) as VideoTaskRecord);
    return Promise.resolve();
  }

  remove(key: string): Promise<void> {
    this.map.delete(key);
    return Promise.resolve();
  }
}

/** Reads a stored value leniently: anything that is not a record of this version is dropped. */
export function isTaskRecord(v: unknown): v is VideoTaskRecord {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Partial<VideoTaskRecord>;
  return (
    r.v === 1 &&
    typeof r.key === 'string' &&
    typeof r.state === 'string' &&
    typeof r.request === 'object' &&
    r.request !== null &&
    typeof r.createdAt === 'number'
  );
}

/** A file-name-safe slug of the prompt: lower-case ASCII words joined by `-`, at most 40 characters. */
export function slugOfPrompt(prompt: string): string {
  const slug = prompt
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || 'video';
}

/** The file name (without `.mp4` or a `-2` suffix) a task's video is saved under. */
export function fileStem(prompt: string, id: string): string {
  return `${slugOfPrompt(prompt || id)}-${shortId(id)}`;
}

/** The last 8 letters or digits of an id: `video_svc_v1_ab12…` shares its prefix with every other id. */
export function shortId(id: string): string {
  const alnum = id.replace(/[^A-Za-z0-9]/g, '');
  return (alnum.slice(-8) || 'task').toLowerCase();
}
