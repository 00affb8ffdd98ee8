/** The head every panel shares: its title and Close (opening and closing: models/panels.ts). */
import type { JSX } from 'preact';
import { useChat } from '../useChat';
import { IconButton } from './buttons';

export function PanelHead({ title }: { title: string }): JSX.Element {
  const { t, panels } = useChat();
  return (
    <div class="panel-head">
      <h2>{title}</h2>
      <IconButton icon="close" label={t('Close')} onClick={() => panels.close()} />
    </div>
  );
}
