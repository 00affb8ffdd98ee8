/** What the user does: send, stop, edit, attach, and the requests the message buttons make. */
import { batch, effect } from '@preact/signals';
import { newId } from '../../src/shared/ids';
import type { EditorContext, ImageAttachment, MentionItem, WebviewMessage } from '../../src/shared/protocol';
import { afterRender, els, post } from './runtime';
import {
  busyRequestId,
  contexts,
  currentModel,
  draft,
  editing,
  images,
  maxImageBytes,
  mentions,
  models,
  notes,
  t,
  type LocalState,
  type Note,
  type VsCodeApi,
} from './state';

let lastRequestId: string | undefined;
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

export function unconfirmedIs(requestId: string): boolean {
  return unconfirmed?.requestId === requestId;
}

export function confirm(): void {
  unconfirmed = undefined;
}

export function lastRequest(): string | undefined {
  return lastRequestId;
}

/** Loads what `vscode.setState` kept, and keeps it from now on. */
export function persistLocal(api: VsCodeApi): void {
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

/** Sends a request unless one is running; the panel is busy until the host says otherwise. */
export function request(msg: Extract<WebviewMessage, { requestId: string }>): void {
  if (busyRequestId.value) return;
  lastRequestId = msg.requestId;
  busyRequestId.value = msg.requestId;
  post(msg);
}

export const regenerate = (): void => request({ type: 'chat/regenerate', requestId: newId('r') });
export const continueAnswer = (): void => request({ type: 'chat/continue', requestId: newId('r') });
export const retry = (): void => request({ type: 'chat/retry', requestId: newId('r') });

export function send(): void {
  if (busyRequestId.value) return;
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
      request({ type: 'chat/editResend', requestId, text });
    } else {
      request({
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
export function restoreUnconfirmed(requestId: string): void {
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

export function stop(): void {
  const id = busyRequestId.value;
  if (id) post({ type: 'chat/cancel', requestId: id });
}

export function beginEdit(text: string): void {
  draft.value = text;
  editing.value = true;
  afterRender(() => els.textarea?.focus());
}

export function setEditing(on: boolean): void {
  editing.value = on;
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

export async function addFiles(files: File[]): Promise<void> {
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

export function removeImage(i: number): void {
  images.value = images.value.filter((_, j) => j !== i);
  renderAttachments();
}

export function removeContext(i: number): void {
  contexts.value = contexts.value.filter((_, j) => j !== i);
  renderAttachments();
}

/** The notes under the composer start over: these problems, and a warning about images. */
export function renderAttachments(problems: string[] = []): void {
  const next: Note[] = problems.map((text) => ({ level: 'warning', text }));
  const model = currentModel.value;
  const info = models.value.find((m) => m.id === model);
  if (images.value.length && info && !info.supportsImages) {
    next.push({
      level: 'warning',
      text: t('{0} does not list image input; the gateway may refuse the attached images.', model),
    });
  }
  notes.value = next;
}
