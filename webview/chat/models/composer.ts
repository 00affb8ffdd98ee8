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

/** What the composer holds, one signal each. */
function composerState() {
  return {
    draft: signal(''),
    images: signal<ImageAttachment[]>([]),
    contexts: signal<EditorContext[]>([]),
    /** @-mention chips waiting in the composer. */
    mentions: signal<MentionItem[]>([]),
    editing: signal(false),
    notes: signal<Note[]>([]),
    maxImageBytes: signal(5 * 1024 * 1024),
  };
}

type ComposerState = ReturnType<typeof composerState>;

/** Loads what `vscode.setState` kept, and keeps it from now on. */
function persistIn(s: ComposerState, api: VsCodeApi): void {
  const saved = api.getState() as Partial<LocalState> | undefined;
  if (saved && typeof saved === 'object') {
    s.draft.value = typeof saved.draft === 'string' ? saved.draft : '';
    s.images.value = Array.isArray(saved.images) ? saved.images : [];
    s.contexts.value = Array.isArray(saved.contexts) ? saved.contexts : [];
    s.mentions.value = Array.isArray(saved.mentions) ? saved.mentions : [];
    s.editing.value = saved.editing === true;
  }
  effect(() => {
    const local: LocalState = {
      draft: s.draft.value,
      images: s.images.value,
      contexts: s.contexts.value,
      mentions: s.mentions.value,
      editing: s.editing.value,
    };
    api.setState(local);
  });
}

/** What one Send took out of the composer. */
interface Taken {
  requestId: string;
  text: string;
  images: ImageAttachment[];
  contexts: EditorContext[];
  mentions: MentionItem[];
  editing: boolean;
}

/** Send, and giving back what a request the host refused took. */
function createSending(s: ComposerState, conversation: ConversationModel, renderAttachments: () => void) {
  /**
   * What the last Send took out of the composer, until the host shows it took the request over
   * (`chat/busy` or the user message with that id). A request the host refuses ends without
   * either, and then the text and attachments go back into the composer instead of vanishing.
   */
  let unconfirmed: Taken | undefined;

  /** The host took request `requestId` over (it is busy with it, or showed its question). */
  function confirm(requestId: string | undefined): void {
    if (requestId !== undefined && unconfirmed?.requestId === requestId) unconfirmed = undefined;
  }

  function request(requestId: string, text: string): void {
    if (s.editing.value) {
      conversation.request({ type: 'chat/editResend', requestId, text });
      return;
    }
    conversation.request({
      type: 'chat/send',
      requestId,
      text,
      images: s.images.value,
      contexts: s.contexts.value,
      ...(s.mentions.value.length ? { mentions: s.mentions.value } : {}),
    });
    s.images.value = [];
    s.contexts.value = [];
    s.mentions.value = [];
  }

  function send(): void {
    if (conversation.busyRequestId.value) return;
    const text = els.textarea?.value ?? s.draft.value;
    const { images, contexts, mentions, editing } = s;
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
      request(requestId, text);
      s.draft.value = '';
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
    if (!s.draft.value.trim()) s.draft.value = u.text;
    if (!u.editing) {
      s.images.value = [...u.images, ...s.images.value];
      s.contexts.value = [...u.contexts, ...s.contexts.value];
      s.mentions.value = [...u.mentions, ...s.mentions.value];
    }
    if (u.editing && s.draft.value === u.text) s.editing.value = true;
    renderAttachments();
  }

  return { confirm, send, restoreUnconfirmed };
}

/** The image problems of `files` (not an image, too large), and the images read from the rest. */
async function readImages(
  files: File[],
  maxBytes: number,
  t: Translate,
): Promise<{ problems: string[]; added: ImageAttachment[] }> {
  const problems: string[] = [];
  const added: ImageAttachment[] = [];
  for (const f of files) {
    if (!f.type.startsWith('image/')) {
      problems.push(t('{0} is not an image.', f.name));
      continue;
    }
    if (f.size > maxBytes) {
      problems.push(
        t(
          '{0} is {1} MB; the limit is {2} MB (setting gatewayStudio.chat.maxImageMegabytes).',
          f.name,
          mb(f.size),
          mb(maxBytes),
        ),
      );
      continue;
    }
    const dataUrl = await readAsDataUrl(f);
    added.push({ name: f.name || 'pasted-image.png', mime: f.type, dataUrl, bytes: f.size });
  }
  return { problems, added };
}

/** Images, editor contexts and the notes under the box. */
function createAttachments(
  s: ComposerState,
  { conversation, modelList, t }: { conversation: ConversationModel; modelList: ModelListModel; t: Translate },
) {
  const { images, contexts, notes } = s;

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

  async function addFiles(files: File[]): Promise<void> {
    const { problems, added } = await readImages(files, s.maxImageBytes.value, t);
    for (const p of problems) post({ type: 'images/rejected', name: p.slice(0, 200), reason: p });
    batch(() => {
      images.value = [...images.value, ...added];
      renderAttachments(problems);
    });
  }

  /** An editor selection or file the host sends (`chat/context`), with the question it suggests. */
  function addContext(context: EditorContext, prompt: string | undefined): void {
    contexts.value = [...contexts.value, context];
    if (prompt !== undefined && !s.draft.value.trim()) s.draft.value = prompt;
    renderAttachments();
    afterRender(() => els.textarea?.focus());
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
    renderAttachments,
    addFiles,
    addContext,
    onHost,
    removeImage(i: number): void {
      images.value = images.value.filter((_, j) => j !== i);
      renderAttachments();
    },
    removeContext(i: number): void {
      contexts.value = contexts.value.filter((_, j) => j !== i);
      renderAttachments();
    },
    /** A note under the composer, read out once it is shown. */
    note(text: string, level: Note['level']): void {
      notes.value = [...notes.value, { level, text }];
      afterRender(() => announce(text));
    },
  };
}

export function createComposerModel(deps: {
  conversation: ConversationModel;
  modelList: ModelListModel;
  t: Translate;
}) {
  const s = composerState();
  const attachments = createAttachments(s, deps);
  const sending = createSending(s, deps.conversation, () => attachments.renderAttachments());
  return {
    ...s,
    persist: (api: VsCodeApi): void => persistIn(s, api),
    ...sending,
    beginEdit(text: string): void {
      s.draft.value = text;
      s.editing.value = true;
      afterRender(() => els.textarea?.focus());
    },
    setEditing: (on: boolean): void => {
      s.editing.value = on;
    },
    ...attachments,
  };
}

export type ComposerModel = ReturnType<typeof createComposerModel>;
