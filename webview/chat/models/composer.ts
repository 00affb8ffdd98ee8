/**
 * The composer: the draft, attached images, editor contexts and @-mention chips, the edit of the
 * last question, the notes under the box, and Send (which gives back what a refused request took).
 * What it holds survives hiding and reloading the page (`vscode.setState`).
 */
import { batch, effect, signal } from '@preact/signals';
import { newId } from '../../../src/shared/ids';
import type { EditorContext, ImageAttachment, MentionItem } from '../../../src/shared/protocol';
import { afterRender, announce, els, post, type VsCodeApi } from '../runtime';
import type { ConversationModel } from './conversation';
import type { ModelListModel } from './modelList';
import type { HostMessageIn } from './routes';
import type { Translate } from './strings';

/** What survives hiding and reloading inside the webview itself (the host keeps the rest). */
export interface LocalState {
  draft: string;
  images: ImageAttachment[];
  contexts: EditorContext[];
  mentions?: MentionItem[];
  editing: boolean;
}

export interface Note {
  level: 'info' | 'warning' | 'error';
  text: string;
}

function mb(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

function readAsDataUrl(f: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error ?? new Error('read failed'));
    r.readAsDataURL(f);
  });
}

export function createComposerModel({
  conversation,
  modelList,
  t,
}: {
  conversation: ConversationModel;
  modelList: ModelListModel;
  t: Translate;
}) {
  const draft = signal('');
  const images = signal<ImageAttachment[]>([]);
  const contexts = signal<EditorContext[]>([]);
  /** @-mention chips waiting in the composer. */
  const mentions = signal<MentionItem[]>([]);
  const editing = signal(false);
  const notes = signal<Note[]>([]);
  const maxImageBytes = signal(5 * 1024 * 1024);
  /**
   * What the last Send took out of the composer, until the host shows it took the request over
   * (`chat/busy` or the user message with that id). A request the host refuses ends without
   * either, and then the text and attachments go back into the composer instead of vanishing.
   */
  let unconfirmed:
    | {
        requestId: string;
        text: string;
        images: ImageAttachment[];
        contexts: EditorContext[];
        mentions: MentionItem[];
        editing: boolean;
      }
    | undefined;

  /** Loads what `vscode.setState` kept, and keeps it from now on. */
  function persist(api: VsCodeApi): void {
    const saved = api.getState() as Partial<LocalState> | undefined;
    if (saved && typeof saved === 'object') {
      draft.value = typeof saved.draft === 'string' ? saved.draft : '';
      images.value = Array.isArray(saved.images) ? saved.images : [];
      contexts.value = Array.isArray(saved.contexts) ? saved.contexts : [];
      mentions.value = Array.isArray(saved.mentions) ? saved.mentions : [];
      editing.value = saved.editing === true;
    }
    effect(() => {
      const local: LocalState = {
        draft: draft.value,
        images: images.value,
        contexts: contexts.value,
        mentions: mentions.value,
        editing: editing.value,
      };
      api.setState(local);
    });
  }

  /** The host took request `requestId` over (it is busy with it, or showed its question). */
  function confirm(requestId: string | undefined): void {
    if (requestId !== undefined && unconfirmed?.requestId === requestId) unconfirmed = undefined;
  }

  function send(): void {
    if (conversation.busyRequestId.value) return;
    const text = els.textarea?.value ?? draft.value;
    if (!text.trim() && images.value.length === 0 && contexts.value.length === 0 && mentions.value.length === 0) return;
    const requestId = newId('r');
    batch(() => {
      unconfirmed = {
        requestId,
        text,
        images: images.value,
        contexts: contexts.value,
        mentions: mentions.value,
        editing: editing.value,
      };
      if (editing.value) {
        conversation.request({ type: 'chat/editResend', requestId, text });
      } else {
        conversation.request({
          type: 'chat/send',
          requestId,
          text,
          images: images.value,
          contexts: contexts.value,
          ...(mentions.value.length ? { mentions: mentions.value } : {}),
        });
        images.value = [];
        contexts.value = [];
        mentions.value = [];
      }
      draft.value = '';
      editing.value = false;
      renderAttachments();
    });
    // Send from the button: the button hides while the answer runs; typing goes on in the box.
    afterRender(() => els.textarea?.focus());
  }

  /** Puts back what a refused Send took out of the composer (keeping anything typed since). */
  function restoreUnconfirmed(requestId: string): void {
    const u = unconfirmed;
    if (!u || u.requestId !== requestId) return;
    unconfirmed = undefined;
    if (!draft.value.trim()) draft.value = u.text;
    if (!u.editing) {
      images.value = [...u.images, ...images.value];
      contexts.value = [...u.contexts, ...contexts.value];
      mentions.value = [...u.mentions, ...mentions.value];
    }
    if (u.editing && draft.value === u.text) editing.value = true;
    renderAttachments();
  }

  function beginEdit(text: string): void {
    draft.value = text;
    editing.value = true;
    afterRender(() => els.textarea?.focus());
  }

  async function addFiles(files: File[]): Promise<void> {
    const problems: string[] = [];
    const added: ImageAttachment[] = [];
    for (const f of files) {
      if (!f.type.startsWith('image/')) {
        problems.push(t('{0} is not an image.', f.name));
        continue;
      }
      if (f.size > maxImageBytes.value) {
        problems.push(
          t(
            '{0} is {1} MB; the limit is {2} MB (setting gatewayStudio.chat.maxImageMegabytes).',
            f.name,
            mb(f.size),
            mb(maxImageBytes.value),
          ),
        );
        continue;
      }
      const dataUrl = await readAsDataUrl(f);
      added.push({ name: f.name || 'pasted-image.png', mime: f.type, dataUrl, bytes: f.size });
    }
    for (const p of problems) post({ type: 'images/rejected', name: p.slice(0, 200), reason: p });
    batch(() => {
      images.value = [...images.value, ...added];
      renderAttachments(problems);
    });
  }

  function removeImage(i: number): void {
    images.value = images.value.filter((_, j) => j !== i);
    renderAttachments();
  }

  function removeContext(i: number): void {
    contexts.value = contexts.value.filter((_, j) => j !== i);
    renderAttachments();
  }

  /** An editor selection or file the host sends (`chat/context`), with the question it suggests. */
  function addContext(context: EditorContext, prompt: string | undefined): void {
    contexts.value = [...contexts.value, context];
    if (prompt !== undefined && !draft.value.trim()) draft.value = prompt;
    renderAttachments();
    afterRender(() => els.textarea?.focus());
  }

  /** The notes under the composer start over: these problems, and a warning about images. */
  function renderAttachments(problems: string[] = []): void {
    const next: Note[] = problems.map((text) => ({ level: 'warning', text }));
    const model = conversation.currentModel.value;
    const info = modelList.info(model);
    if (images.value.length && info && !info.supportsImages) {
      next.push({
        level: 'warning',
        text: t('{0} does not list image input; the gateway may refuse the attached images.', model),
      });
    }
    notes.value = next;
  }

  /** A note under the composer, read out once it is shown. */
  function note(text: string, level: Note['level']): void {
    notes.value = [...notes.value, { level, text }];
    afterRender(() => announce(text));
  }

  function onHost(msg: HostMessageIn<'images'>): void {
    switch (msg.type) {
      case 'images/picked':
        images.value = [...images.value, ...msg.images];
        renderAttachments(msg.problems);
        return;
    }
  }

  return {
    draft,
    images,
    contexts,
    mentions,
    editing,
    notes,
    maxImageBytes,
    persist,
    confirm,
    send,
    restoreUnconfirmed,
    beginEdit,
    setEditing: (on: boolean): void => {
      editing.value = on;
    },
    addFiles,
    removeImage,
    removeContext,
    addContext,
    renderAttachments,
    note,
    onHost,
  };
}

export type ComposerModel = ReturnType<typeof createComposerModel>;
