/** The panel open under the toolbar (history, settings, tools), and opening and closing it. */
import { signal } from '@preact/signals';
import { afterRender, els, post } from '../runtime';

export type PanelName = 'history' | 'settings' | 'tools';

export function createPanelsModel() {
  const open = signal<PanelName | undefined>(undefined);

  /**
   * Opens `which` (or closes it when it is open). An opened panel takes focus, so the keyboard is
   * where the eyes are; a closed one gives focus back to the message box.
   */
  function toggle(which: PanelName): void {
    open.value = open.value === which ? undefined : which;
    if (open.value === 'history') post({ type: 'history/list' });
    const shown = open.value;
    afterRender(() => {
      if (!shown) return els.textarea?.focus();
      const panel = document.querySelector<HTMLElement>('.panel');
      const first =
        panel?.querySelector<HTMLElement>('[data-autofocus]') ??
        panel?.querySelector<HTMLElement>('input, select, textarea, .panel-body button:not(.icon-btn)') ??
        panel?.querySelector<HTMLElement>('button');
      first?.focus();
    });
  }

  /** Closes whichever panel is open; true when one was. */
  function close(): boolean {
    const which = open.value;
    if (!which) return false;
    toggle(which);
    return true;
  }

  return { open, toggle, close };
}

export type PanelsModel = ReturnType<typeof createPanelsModel>;
