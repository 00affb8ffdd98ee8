import { computed, effect, signal, type ReadonlySignal, type Signal } from '@preact/signals';
import type {
  GalleryForm,
  GalleryHostMessage,
  GalleryTask,
  GalleryWebviewMessage,
} from '../../src/shared/protocol/gallery';
import { asMessage } from '../../src/shared/protocol/guard';
import { strings } from '../common/strings';
import { bucket, type TaskBucket } from '../common/taskBucket';
import type { VsCodeApi } from '../common/vscodeApi';

export type Filter = 'all' | TaskBucket;

/** What the gallery shows: the host's list, the user's filter and search, the open form. */
export interface GalleryStore {
  tasks: Signal<GalleryTask[]>;
  filter: Signal<Filter>;
  search: Signal<string>;
  form: Signal<GalleryForm | null>;
  notice: Signal<{ text: string; error: boolean } | null>;
  visible: ReadonlySignal<GalleryTask[]>;
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

export function connect(api: VsCodeApi): GalleryStore {
  const saved = (api.getState() ?? {}) as { filter?: Filter; search?: string };
  const tasks = signal<GalleryTask[]>([]);
  const filter = signal<Filter>(saved.filter ?? 'all');
  const search = signal(saved.search ?? '');
  const form = signal<GalleryForm | null>(null);
  const notice = signal<{ text: string; error: boolean } | null>(null);
  const visible = computed(() => tasks.value.filter((t) => matches(t, filter.value, search.value)));
  // The filter and the search survive the view being hidden and shown again.
  effect(() => api.setState({ filter: filter.value, search: search.value }));
  window.addEventListener('message', (e: MessageEvent) => {
    const msg = asMessage<GalleryHostMessage>(e.data);
    if (!msg) return;
    if (msg.type === 'gallery/state') tasks.value = msg.tasks;
    else if (msg.type === 'gallery/strings') strings.value = msg.strings;
    else if (msg.type === 'gallery/form') {
      form.value = msg.form;
      notice.value = null;
    } else if (msg.type === 'gallery/notice') {
      notice.value = { text: msg.text, error: msg.error };
      if (msg.closeForm) form.value = null;
    }
  });
  return { tasks, filter, search, form, notice, visible, post: (m) => api.postMessage(m) };
}
