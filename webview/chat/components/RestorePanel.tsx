/**
 * The panel that shows what "Restore files to before this answer" would revert (per file: what
 * happens, a short diff, a full diff in VS Code) and asks; loaded on first use (lazy.ts), shown
 * by Checkpoint.tsx.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { CheckpointFileView } from '../../../src/shared/protocol';
import type { WebviewString } from '../../../src/shared/webviewStrings';
import { post } from '../runtime';
import { useChat } from '../useChat';
import { Icon, TextButton } from './buttons';

function whatHappens(f: CheckpointFileView): WebviewString {
  if (f.status === 'same') return 'already as before';
  if (f.status === 'unrecorded') return 'cannot be restored: its prior content was not recorded';
  if (f.status === 'changed') return 'changed since the answer: skipped unless you tick it';
  if (f.action === 'delete') return 'will be deleted (the answer created it)';
  if (f.action === 'recreate') return 'will be re-created (deleted since)';
  return 'will be restored';
}

export function RestorePanel({ answerId, files }: { answerId: string; files: CheckpointFileView[] }): JSX.Element {
  const { t, conversation } = useChat();
  const [overwrite, setOverwrite] = useState<ReadonlySet<string>>(new Set());
  const [cut, setCut] = useState(false);
  const toggle = (p: string, on: boolean) => {
    const next = new Set(overwrite);
    if (on) next.add(p);
    else next.delete(p);
    setOverwrite(next);
  };
  const actionable = files.some((f) => f.status === 'ok' || f.status === 'changed');
  return (
    <section class="restore-panel" aria-label={t('Restore files to before this answer')}>
      <h3>
        <Icon name="discard" /> {t('Restore files to before this answer')}
      </h3>
      <p>
        {actionable
          ? t('These changes will be reverted:')
          : t('Nothing to restore: every file is already as before this answer.')}
      </p>
      <ul class="restore-files">
        {files.map((f) => (
          <li key={f.path} class={`restore-file status-${f.status}`} data-path={f.relative}>
            <div class="restore-file-head">
              <code>{f.relative}</code> <span class="restore-what">{t(whatHappens(f))}</span>
              {f.diff ? (
                <TextButton
                  icon="diff"
                  label={t('Open diff')}
                  onClick={() => post({ type: 'checkpoints/diff', answerId, path: f.path })}
                />
              ) : null}
            </div>
            {f.status === 'changed' ? (
              <label class="restore-overwrite">
                <input
                  type="checkbox"
                  checked={overwrite.has(f.path)}
                  onChange={(e) => toggle(f.path, (e.currentTarget as HTMLInputElement).checked)}
                />{' '}
                {t('Overwrite my changes to {0}', f.relative)}
              </label>
            ) : null}
            {f.diff ? (
              <details class="restore-diff">
                <summary>{t('Show the change')}</summary>
                <pre>{f.diff}</pre>
              </details>
            ) : null}
          </li>
        ))}
      </ul>
      <label class="restore-cut">
        <input type="checkbox" checked={cut} onChange={(e) => setCut((e.currentTarget as HTMLInputElement).checked)} />{' '}
        {t('Also remove this answer and everything after it from the conversation')}
      </label>
      <div class="restore-actions">
        <TextButton
          icon="discard"
          label={t('Restore')}
          class="text-btn primary"
          disabled={conversation.busy.value}
          onClick={() => post({ type: 'checkpoints/restore', answerId, overwrite: [...overwrite], cut })}
        />
        <TextButton icon="close" label={t('Cancel')} onClick={() => post({ type: 'checkpoints/cancel', answerId })} />
      </div>
    </section>
  );
}
