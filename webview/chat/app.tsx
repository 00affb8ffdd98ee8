/**
 * The chat UI: Preact components over signals (state.ts), fed by host messages (actions.ts).
 * The markdown of a streaming answer stays imperative (stream.ts): it is the fast path.
 */
import { effect } from '@preact/signals';
import { render, type JSX } from 'preact';
import { onHostMessage } from './actions';
import { addFiles, persistLocal, stop } from './composerActions';
import { Composer } from './components/Composer';
import { closePanel } from './components/PanelHead';
import { ContextMeter } from './components/ContextMeter';
import { Header } from './components/Header';
import { MessageList } from './components/MessageList';
import { droppedUris } from './mentionActions';
import { els, post, setApi } from './runtime';
import { busy, busyRequestId, t, type VsCodeApi } from './state';

export type { VsCodeApi } from './state';

function App(): JSX.Element {
  return (
    <>
      <Header />
      <main class="chat-main">
        <h1 class="sr-only">{t('Gateway Studio chat')}</h1>
        <MessageList />
        <ContextMeter />
        <Composer />
      </main>
      <div
        class="sr-only"
        role="status"
        aria-live="polite"
        aria-atomic="true"
        ref={(el) => {
          els.liveRegion = el ?? undefined;
        }}
      />
    </>
  );
}

/** Renders the chat into `root`, starts listening, and tells the host the page is ready. */
export function startChat(root: HTMLElement, api: VsCodeApi): void {
  setApi(api);
  persistLocal(api);
  root.replaceChildren();
  render(<App />, root);
  effect(() => {
    root.classList.toggle('busy', busy.value);
  });
  window.addEventListener('message', (ev: MessageEvent) => onHostMessage(ev.data));
  // When VS Code moves focus into the panel (Open Chat, a keyboard shortcut, clicking its tab),
  // the page itself gets it: the message box takes it, so typing goes straight into a question.
  window.addEventListener('focus', () => {
    const a = document.activeElement;
    if (!a || a === document.body) els.textarea?.focus();
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key !== 'Escape' || ev.defaultPrevented) return;
    // Escape inside an open panel closes it (focus goes back to the message box); anywhere
    // else it stops a running answer first, and closes the panel when nothing runs.
    const inPanel = (ev.target as Element | null)?.closest?.('.panel') != null;
    if (inPanel && closePanel()) return ev.preventDefault();
    if (busyRequestId.value) {
      ev.preventDefault();
      stop();
    } else if (closePanel()) ev.preventDefault();
  });
  // Links never navigate the webview: the host checks them and opens them outside.
  document.addEventListener('click', (ev) => {
    const a = (ev.target as Element | null)?.closest?.('a');
    if (!a) return;
    ev.preventDefault();
    const href = a.getAttribute('href');
    if (href) post({ type: 'link/open', href });
  });
  root.addEventListener('dragover', (ev) => {
    const types = ev.dataTransfer?.types ?? [];
    // Files from the OS, or URIs from VS Code's explorer and editor tabs (dropped with Shift held).
    if (types.includes('Files') || types.includes('application/vnd.code.uri-list') || types.includes('text/uri-list'))
      ev.preventDefault();
  });
  root.addEventListener('drop', (ev) => {
    const files = [...(ev.dataTransfer?.files ?? [])];
    const uris = ev.dataTransfer ? droppedUris(ev.dataTransfer) : [];
    if (files.length) {
      ev.preventDefault();
      void addFiles(files);
    } else if (uris.length) {
      ev.preventDefault();
      post({ type: 'mentions/drop', uris });
    }
  });
  post({ type: 'webview/ready' });
}
