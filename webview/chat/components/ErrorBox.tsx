/** A failure in user words with the buttons that act on it (inline under an answer, or alone). */
import type { JSX } from 'preact';
import type { ErrorAction, ErrorView } from '../../../src/shared/protocol';
import type { WebviewString } from '../../../src/shared/webviewStrings';
import { post } from '../runtime';
import { useChat } from '../useChat';
import { Icon, TextButton } from './buttons';

const ACTION_LABEL: Record<ErrorAction, WebviewString> = {
  setApiKey: 'Set API Key',
  openSettings: 'Open Settings',
  retry: 'Retry',
  showLog: 'Show Log',
  selectModel: 'Select Model',
  compact: 'Compact conversation',
  toolsOff: 'Send without tools',
  toolsReadOnly: 'Read-only tools only',
};
const ACTION_ICON: Record<ErrorAction, string> = {
  setApiKey: 'key',
  openSettings: 'settings-gear',
  retry: 'refresh',
  showLog: 'output',
  selectModel: 'symbol-class',
  compact: 'fold',
  toolsOff: 'circle-slash',
  toolsReadOnly: 'eye',
};

export function ErrorBox({
  error,
  requestId,
  standalone,
}: {
  error: ErrorView;
  requestId?: string;
  standalone?: boolean;
}): JSX.Element {
  const { t, conversation } = useChat();
  return (
    <div class={standalone ? 'error standalone-error' : 'error'} role="alert">
      <p class="error-title">
        <Icon name="error" /> {error.title}
      </p>
      <p class="error-detail">{error.detail}</p>
      <div class="error-actions">
        {error.actions.map((a) => (
          <TextButton
            key={a}
            icon={ACTION_ICON[a]}
            label={t(ACTION_LABEL[a])}
            onClick={() => {
              if (a === 'retry') return conversation.retry();
              post({ type: 'error/action', action: a, requestId: requestId ?? conversation.lastRequest() });
              // The tool mode is set (per model) before the question is asked again.
              if (a === 'toolsOff' || a === 'toolsReadOnly') conversation.retry();
            }}
          />
        ))}
      </div>
    </div>
  );
}

/** A request that failed without an answer to show it under: one box at the end of the log. */
export function StandaloneError(): JSX.Element | null {
  const { conversation } = useChat();
  const e = conversation.standaloneError.value;
  return e ? <ErrorBox error={e.error} requestId={e.requestId} standalone /> : null;
}
