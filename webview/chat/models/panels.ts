/** The panel open under the toolbar (history, settings, tools), and opening and closing it. */
import { signal } from '@preact/signals';
import { afterRender, els, post } from '../runtime';

export type PanelName = 'history' | 'settings' | 'tools';

/** The panels' code, a chunk loaded on first use (lazy.ts). */
export interface PanelsCode {
  loaded(): boolean;
  load(): Promise<unknown>;
}

export function createPanelsModel(code: PanelsCode) {
  const open = signal<PanelName | undefined>(undefined);
  /** The panel that opens once its code is here (the last one asked for). */
  let waiting: PanelName | undefined;

  /**
   * Opens `which` (or closes it when it is open). An opened panel takes focus, so the keyboard is
   * where the eyes are; a closed one gives focus back to the message box. A panel whose code is
   * not loaded yet opens when it is, so it is never shown empty or focused before it exists.
   */
  function toggle(which: PanelName): void {
    if (open.value !== which && !code.loaded()) {
      waiting = which;
      void code.load().then(() => {
        if (waiting === which && code.loaded()) toggle(which);
      });
      return;
    }
    waiting = undefined;
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
    waiting = undefined;
    const which = open.value;
    if (!which) return false;
    toggle(which);
    return true;
  }

  return { open, toggle, close };
}
