/** The past conversations the history panel lists (`history/*` from the host). */
import { signal } from '@preact/signals';
import type { HistoryEntry } from '../../../src/shared/protocol';
import { afterRender } from '../runtime';
import type { HostMessageIn } from './routes';

export function createHistoryModel() {
  const entries = signal<HistoryEntry[]>([]);
  /** Bumped when the history arrives again: the panel's rows (rename, armed delete) start over. */
  const version = signal(0);

  function onHost(msg: HostMessageIn<'history'>): void {
    switch (msg.type) {
      case 'history/list':
        entries.value = msg.entries;
        version.value++;
        // The list comes after the panel opened (and every row is built anew): the keyboard goes
        // to the open conversation's row, unless the user has moved on out of the panel.
        afterRender(() => {
          const a = document.activeElement;
          if (a && a !== document.body && !a.closest('.panel')) return;
          document.querySelector<HTMLElement>('.history-list [data-autofocus]')?.focus();
        });
        return;
    }
  }

  return { entries, version, onHost };
}
