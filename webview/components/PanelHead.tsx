/** Opening and closing the panels, and their shared head. */
import type { JSX } from 'preact';
import { post } from '../runtime';
import { openPanel, t, type PanelName } from '../state';
import { IconButton } from './buttons';

export function togglePanel(which: PanelName): void {
  openPanel.value = openPanel.value === which ? undefined : which;
  if (openPanel.value === 'history') post({ type: 'history/list' });
}

export function PanelHead({ title }: { title: string }): JSX.Element {
  return (
    <div class="panel-head">
      <h2>{title}</h2>
      <IconButton icon="close" label={t('Close')} onClick={() => togglePanel(openPanel.value ?? 'history')} />
    </div>
  );
}
