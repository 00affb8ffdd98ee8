/**
 * The Media gallery's kind filter: videos (tasks), images (saved files) or both, merged newest
 * first. Shared by the page (what it shows) and its tests; no DOM, no node.
 */

export type MediaKindFilter = 'all' | 'images' | 'videos';

export type MediaEntry<V, I> = { kind: 'video'; item: V; at: number } | { kind: 'image'; item: I; at: number };

/**
 * The entries `filter` shows: videos in the host's order, images newest first, and for `all` both
 * merged by time (newest first; a video and an image of the same moment keep that order).
 */
export function mediaEntries<V extends { createdAt: number }, I extends { createdAt: number }>(
  videos: readonly V[],
  images: readonly I[],
  filter: MediaKindFilter,
): MediaEntry<V, I>[] {
  const vs = filter === 'images' ? [] : videos.map((item) => ({ kind: 'video' as const, item, at: item.createdAt }));
  const is = filter === 'videos' ? [] : images.map((item) => ({ kind: 'image' as const, item, at: item.createdAt }));
  if (filter !== 'all') return [...vs, ...is];
  // Array.prototype.sort is stable: equal times keep videos before images.
  return [...vs, ...is].sort((a, b) => b.at - a.at);
}

/** Whether a stored filter value is one of ours (the page's saved state may be from an older build). */
export function isMediaKind(v: unknown): v is MediaKindFilter {
  return v === 'all' || v === 'images' || v === 'videos';
}
