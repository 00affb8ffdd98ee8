import { signal, type Signal } from '@preact/signals';
import type { BoardView, ExportReply, StoryboardHostMessage } from '../../src/shared/protocol/storyboard';
import { asMessage } from '../../src/shared/protocol/guard';
import { strings } from '../common/strings';
import type { VsCodeApi } from '../common/vscodeApi';

/** What the board page shows: the host's view of the board and the last notice. */
export interface BoardStore {
  view: Signal<BoardView | null>;
  notice: Signal<{ text: string; error: boolean } | null>;
  post(m: unknown): void;
  /** Posts an export call with a fresh `requestId` and resolves with the host's `board/exportReply`. */
  request(m: Record<string, unknown>): Promise<ExportReply>;
}

/**
 * The last frame of a clip the host sent as bytes. lastFrame.ts (mediabunny over WebCodecs) is
 * loaded on the first chained shot only: it is most of this page's weight.
 */
async function answerClip(api: VsCodeApi, requestId: number, bytes: Uint8Array): Promise<void> {
  try {
    const { lastFramePng } = await import('./media/lastFrame');
    const copy = bytes.slice().buffer;
    const frame = await lastFramePng(copy);
    api.postMessage({ type: 'board/frame', requestId, dataUrl: frame.dataUrl });
  } catch (e) {
    api.postMessage({ type: 'board/frame', requestId, error: e instanceof Error ? e.message : String(e) });
  }
}

export function connect(api: VsCodeApi): BoardStore {
  const view = signal<BoardView | null>(null);
  const notice = signal<{ text: string; error: boolean } | null>(null);
  const pending = new Map<number, (r: ExportReply) => void>();
  let next = 1;
  window.addEventListener('message', (e: MessageEvent) => {
    const msg = asMessage<StoryboardHostMessage>(e.data);
    if (!msg) return;
    if (msg.type === 'board/state') view.value = msg.view;
    else if (msg.type === 'board/strings') strings.value = msg.strings;
    else if (msg.type === 'board/notice') notice.value = { text: msg.text, error: msg.error };
    else if (msg.type === 'board/clip') void answerClip(api, msg.requestId, msg.bytes);
    else if (msg.type === 'board/exportReply') {
      pending.get(msg.requestId)?.(msg.reply);
      pending.delete(msg.requestId);
    }
  });
  return {
    view,
    notice,
    post: (m) => api.postMessage(m),
    request: (m) =>
      new Promise<ExportReply>((resolve) => {
        const requestId = next++;
        pending.set(requestId, resolve);
        api.postMessage({ ...m, requestId });
      }),
  };
}
