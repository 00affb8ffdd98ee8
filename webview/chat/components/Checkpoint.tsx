/**
 * "Restore files to before this answer": the button under an answer that changed files, and the
 * panel that shows what would be reverted (RestorePanel.tsx, loaded on first use) and asks. Files changed since the answer are skipped unless ticked; the conversation
 * is cut back only when asked. The host does the work (src/chat/checkpoints/vscode/checkpoints.ts).
 */
import type { JSX } from 'preact';
import { panelsCode } from '../lazy';
import { post } from '../runtime';
import { useChat } from '../useChat';
import { TextButton } from './buttons';

export function RestoreCheckpoint({ answerId }: { answerId: string }): JSX.Element | null {
  const { t, conversation, checkpoints } = useChat();
  const info = checkpoints.summaries.value.get(answerId);
  const plan = checkpoints.plan.value;
  if (!info) return null;
  // The panel's code is a chunk (lazy.ts): until it is here, the button stays.
  const code = panelsCode.value.value;
  if (plan?.answerId === answerId) {
    if (code) return <code.RestorePanel answerId={answerId} files={plan.files} />;
    void panelsCode.load();
  }
  const load = () => void panelsCode.load();
  return (
    <div class="checkpoint">
      <TextButton
        icon="discard"
        label={t('Restore files to before this answer')}
        disabled={conversation.busy.value}
        onPointerEnter={load}
        onFocus={load}
        onClick={() => {
          load();
          post({ type: 'checkpoints/preview', answerId });
        }}
      />
    </div>
  );
}
