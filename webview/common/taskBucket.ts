import type { GalleryTask } from '../../src/shared/protocol/gallery';

/** Where a media task stands, as its card's colour and the gallery's filters say it. */
export type TaskBucket = 'running' | 'saved' | 'failed';

const RUNNING = new Set<GalleryTask['state']>(['creating', 'polling', 'downloading', 'timed_out', 'paused']);

/** Which bucket a task falls under. */
export function bucket(t: GalleryTask): TaskBucket {
  if (t.state === 'saved') return 'saved';
  if (t.state === 'failed' || t.state === 'error') return 'failed';
  return RUNNING.has(t.state) ? 'running' : 'failed';
}
