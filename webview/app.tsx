/**
 * The chat UI: Preact components over signals (state.ts), fed by host messages (actions.ts).
 * The markdown of a streaming answer stays imperative (stream.ts): it is the fast path.
 */
import { effect } from '@preact/signals';
import { render, type JSX } from 'preact';
import { onHostMessage } from './actions';
import { addFiles, persistLocal, stop } from './composerActions';
import { Composer } from './components/Composer';
import { ContextMeter } from './components/ContextMeter';
import { Header } from './components/Header';
import { MessageList } from './components/MessageList';
import { droppedUris } from './mentionActions';
import { els, post, setApi } from './runtime';
import { busy, busyRequestId, type VsCodeApi } from './state';

export type { VsCodeApi } from './state';

function App(): JSX.Element {
  return (
    <>
      <Header />
      <MessageList />
      <ContextMeter />
      <Composer />
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
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && busyRequestId.value) {
      ev.preventDefault();
      stop();
    }
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
