/** The models the gateway lists (`models/*` from the host), for the model box and its hints. */
import { signal } from '@preact/signals';
import type { ModelInfo } from '../../../src/shared/protocol';
import type { HostMessageIn } from './routes';

export function createModelListModel(deps: { note: (text: string, level: 'warning') => void }) {
  const list = signal<ModelInfo[]>([]);
  const loading = signal(false);
  /** The gateway wants a key and none is set: the empty chat offers Set API Key. */
  const noCredentials = signal(false);

  function onHost(msg: HostMessageIn<'models'>): void {
    switch (msg.type) {
      case 'models/list':
        list.value = msg.models;
        loading.value = msg.loading;
        noCredentials.value = !!msg.noCredentials;
        if (msg.error) deps.note(`${msg.error.title}: ${msg.error.detail}`, 'warning');
        return;
    }
  }

  /** What the list says about `id`, if it lists it. */
  const info = (id: string): ModelInfo | undefined => list.value.find((m) => m.id === id);

  return { list, loading, noCredentials, info, onHost };
}

export type ModelListModel = ReturnType<typeof createModelListModel>;
