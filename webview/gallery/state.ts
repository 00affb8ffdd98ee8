import { computed, effect, signal, type ReadonlySignal, type Signal } from '@preact/signals';
import type {
  GalleryForm,
  GalleryHostMessage,
  GalleryImage,
  GalleryTask,
  GalleryWebviewMessage,
} from '../../src/shared/protocol/gallery';
import { isMediaKind, mediaEntries, type MediaEntry, type MediaKindFilter } from '../../src/shared/mediaKinds';
import { asMessage } from '../../src/shared/protocol/guard';
import { strings } from '../common/strings';
import { bucket, type TaskBucket } from '../common/taskBucket';
import type { VsCodeApi } from '../common/vscodeApi';

export type Filter = 'all' | TaskBucket;
export type Entry = MediaEntry<GalleryTask, GalleryImage>;

/** What the gallery shows: the host's list, the user's filter and search, the open form. */
export interface GalleryStore {
  tasks: Signal<GalleryTask[]>;
  images: Signal<GalleryImage[]>;
  /** Videos, images or both. */
  kind: Signal<MediaKindFilter>;
  filter: Signal<Filter>;
  search: Signal<string>;
  form: Signal<GalleryForm | null>;
  notice: Signal<{ text: string; error: boolean } | null>;
  visible: ReadonlySignal<Entry[]>;
  post(m: GalleryWebviewMessage): void;
}

/** Tasks under `filter` whose prompt, model, id or file contains every word of `search`. */
export function matches(t: GalleryTask, filter: Filter, search: string): boolean {
  if (filter !== 'all' && bucket(t) !== filter) return false;
  const hay = [t.prompt, t.model, t.videoId ?? '', t.file ?? '', t.key].join(' ').toLowerCase();
  return search
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

/** An image under `filter` (a saved file: only All and Saved show it) and `search`. */
export function imageMatches(i: GalleryImage, filter: Filter, search: string): boolean {
  if (filter !== 'all' && filter !== 'saved') return false;
  const hay = [i.prompt ?? '', i.model ?? '', i.file, i.operation ?? ''].join(' ').toLowerCase();
  return search
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

/** The key of an entry's card (roving focus, list keys). */
export const entryKey = (e: Entry): string => (e.kind === 'video' ? e.item.key : `image:${e.item.name}`);

export function connect(api: VsCodeApi): GalleryStore {
  const saved = (api.getState() ?? {}) as { filter?: Filter; search?: string; kind?: unknown };
  const tasks = signal<GalleryTask[]>([]);
  const images = signal<GalleryImage[]>([]);
  const kind = signal<MediaKindFilter>(isMediaKind(saved.kind) ? saved.kind : 'all');
  const filter = signal<Filter>(saved.filter ?? 'all');
  const search = signal(saved.search ?? '');
  const form = signal<GalleryForm | null>(null);
  const notice = signal<{ text: string; error: boolean } | null>(null);
  const visible = computed(() =>
    mediaEntries(
      tasks.value.filter((t) => matches(t, filter.value, search.value)),
      images.value.filter((i) => imageMatches(i, filter.value, search.value)),
      kind.value,
    ),
  );
  // The filters and the search survive the view being hidden and shown again.
  effect(() => api.setState({ filter: filter.value, search: search.value, kind: kind.value }));
  window.addEventListener('message', (e: MessageEvent) => {
    const msg = asMessage<GalleryHostMessage>(e.data);
    if (!msg) return;
    if (msg.type === 'gallery/state') {
      tasks.value = msg.tasks;
      images.value = msg.images ?? [];
    } else if (msg.type === 'gallery/strings') strings.value = msg.strings;
    else if (msg.type === 'gallery/form') {
      form.value = msg.form;
      notice.value = null;
    } else if (msg.type === 'gallery/notice') {
      notice.value = { text: msg.text, error: msg.error };
      if (msg.closeForm) form.value = null;
    }
  });
  return { tasks, images, kind, filter, search, form, notice, visible, post: (m) => api.postMessage(m) };
}
