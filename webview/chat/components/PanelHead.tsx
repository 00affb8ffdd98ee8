/** Opening and closing the panels, and their shared head. */
import type { JSX } from 'preact';
import { afterRender, els, post } from '../runtime';
import { openPanel, t, type PanelName } from '../state';
import { IconButton } from './buttons';

/**
 * Opens `which` (or closes it when it is open). An opened panel takes focus, so the keyboard is
 * where the eyes are; a closed one gives focus back to the message box.
 */
export function togglePanel(which: PanelName): void {
  openPanel.value = openPanel.value === which ? undefined : which;
  if (openPanel.value === 'history') post({ type: 'history/list' });
  const open = openPanel.value;
  afterRender(() => {
    if (!open) return els.textarea?.focus();
    const panel = document.querySelector<HTMLElement>('.panel');
    const first =
      panel?.querySelector<HTMLElement>('[data-autofocus]') ??
      panel?.querySelector<HTMLElement>('input, select, textarea, .panel-body button:not(.icon-btn)') ??
      panel?.querySelector<HTMLElement>('button');
    first?.focus();
  });
}

/** Closes whichever panel is open; true when one was. */
export function closePanel(): boolean {
  const open = openPanel.value;
  if (!open) return false;
  togglePanel(open);
  return true;
}

export function PanelHead({ title }: { title: string }): JSX.Element {
  return (
    <div class="panel-head">
      <h2>{title}</h2>
      <IconButton icon="close" label={t('Close')} onClick={() => closePanel()} />
    </div>
  );
}
