/**
 * The chat UI: Preact components over one model per capability (models/), fed by host messages.
 * The markdown of a streaming answer stays imperative (stream.ts): it is the fast path.
 */
import { effect } from '@preact/signals';
import { render, type JSX } from 'preact';
import { Composer } from './components/Composer';
import { Header } from './components/Header';
import { MessageList } from './components/MessageList';
import { agentsCode, cardsCode, meterCode, queueCode } from './lazy';
import { setImageLabel } from './markdown';
import { createChatApp } from './models/app';
import { droppedUris } from './models/mentions';
import { els, post, setApi, type VsCodeApi } from './runtime';
import { ChatContext, useChat } from './useChat';

export type { VsCodeApi } from './runtime';

function App(): JSX.Element {
  const { t } = useChat();
  return (
    <>
      <Header />
      <main class="chat-main">
        <h1 class="sr-only">{t('Gateway Studio chat')}</h1>
        <MessageList />
        <LazyMeter />
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

/** The context meter, once the host has sent its figures and its chunk is here (lazy.ts). */
function LazyMeter(): JSX.Element | null {
  const { context } = useChat();
  const code = meterCode.value.value;
  if (!context.meter.value) return null;
  if (!code) {
    void meterCode.load();
    return null;
  }
  return <code.ContextMeter />;
}

/** Renders the chat into `root`, starts listening, and tells the host the page is ready. */
export function startChat(root: HTMLElement, api: VsCodeApi): void {
  setApi(api);
  const app = createChatApp({ setImageLabel });
  const { conversation, composer, panels } = app;
  composer.persist(api);
  root.replaceChildren();
  render(
    <ChatContext.Provider value={app}>
      <App />
    </ChatContext.Provider>,
    root,
  );
  effect(() => {
    root.classList.toggle('busy', conversation.busy.value);
  });
  window.addEventListener('message', (ev: MessageEvent) => app.onHostMessage(ev.data));
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
    if (inPanel && panels.close()) return ev.preventDefault();
    if (conversation.busyRequestId.value) {
      ev.preventDefault();
      conversation.stop();
    } else if (panels.close()) ev.preventDefault();
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
      void composer.addFiles(files);
    } else if (uris.length) {
      ev.preventDefault();
      post({ type: 'mentions/drop', uris });
    }
  });
  post({ type: 'webview/ready' });
  // A tool card may come with any answer: its chunk (lazy.ts) loads once the first paint is done.
  // So are the agent picker and the handoff buttons.
  if (typeof requestIdleCallback === 'function')
    requestIdleCallback(() => void Promise.all([cardsCode.load(), agentsCode.load(), queueCode.load()]), {
      timeout: 2000,
    });
  else void agentsCode.load();
}
