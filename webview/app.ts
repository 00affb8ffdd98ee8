import {
  newId,
  parseHostMessage,
  type AssistantMessage,
  type ChatMessage,
  type ChatParams,
  type Conversation,
  type EditorContext,
  type ErrorAction,
  type ErrorView,
  type HistoryEntry,
  type HostMessage,
  type ImageAttachment,
  type ModelInfo,
  type ParamOverrides,
  type ToolCallUpdate,
  type ToolChoiceSetting,
  type ToolInfo,
  type UserMessage,
  type WebviewMessage,
} from '../src/shared/protocol';
import type { WebviewString } from '../src/shared/webviewStrings';
import { h, icon, iconButton, textButton } from './dom';
import { highlightCode, renderMarkdown, setImageLabel } from './markdown';
import { StreamRenderer } from './stream';

/** The part of `acquireVsCodeApi()` the chat uses. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** What survives hiding and reloading inside the webview itself (the host keeps the rest). */
interface LocalState {
  draft: string;
  images: ImageAttachment[];
  contexts: EditorContext[];
  editing: boolean;
}

interface LiveMessage {
  article: HTMLElement;
  renderer: StreamRenderer;
  reasoning: Text;
}

const ERROR_ACTION_LABEL: Record<ErrorAction, WebviewString> = {
  setApiKey: 'Set API Key',
  openSettings: 'Open Settings',
  retry: 'Retry',
  showLog: 'Show Log',
  selectModel: 'Select Model',
};
const ERROR_ACTION_ICON: Record<ErrorAction, string> = {
  setApiKey: 'key',
  openSettings: 'settings-gear',
  retry: 'refresh',
  showLog: 'output',
  selectModel: 'symbol-class',
};
const TOOL_STATE_LABEL: Record<ToolCallUpdate['state'], WebviewString> = {
  'awaiting-approval': 'Waiting for your approval',
  running: 'Running',
  done: 'Done',
  denied: 'Denied',
  error: 'Failed',
};

/** The chat UI. Owns the DOM under `root`; talks to the host only through `api.postMessage`. */
export class ChatApp {
  private strings: Record<string, string> = {};
  private conversation: Conversation | undefined;
  private defaults: ChatParams | undefined;
  private defaultModel = '';
  private defaultSystemPrompt = '';
  private busyRequestId: string | undefined;
  private lastRequestId: string | undefined;
  /**
   * What the last Send took out of the composer, until the host shows it took the request over
   * (`chat/busy` or the user message with that id). A request the host refuses ends without
   * either, and then the text and attachments go back into the composer instead of vanishing.
   */
  private unconfirmed: { requestId: string; text: string; images: ImageAttachment[]; contexts: EditorContext[]; editing: boolean } | undefined;
  private models: ModelInfo[] = [];
  private modelsLoading = false;
  private tools: ToolInfo[] = [];
  private toolChoice: ToolChoiceSetting = 'auto';
  private history: HistoryEntry[] = [];
  private maxImageBytes = 5 * 1024 * 1024;
  private local: LocalState = { draft: '', images: [], contexts: [], editing: false };
  private readonly live = new Map<string, LiveMessage>();
  private readonly cards = new Map<string, HTMLElement>();
  private readonly toolUpdates = new Map<string, ToolCallUpdate>();
  private openPanel: 'history' | 'settings' | 'tools' | undefined;

  // Elements
  private readonly log: HTMLElement;
  private readonly liveRegion: HTMLElement;
  private readonly modelInput: HTMLInputElement;
  private readonly modelList: HTMLDataListElement;
  private readonly modelInfo: HTMLElement;
  private readonly usageTotal: HTMLElement;
  private readonly panel: HTMLElement;
  private readonly textarea: HTMLTextAreaElement;
  private readonly attachRow: HTMLElement;
  private readonly composerNotes: HTMLElement;
  private readonly sendBtn: HTMLButtonElement;
  private readonly stopBtn: HTMLButtonElement;
  private readonly editBanner: HTMLElement;
  private readonly toolbar: HTMLElement;

  constructor(
    private readonly root: HTMLElement,
    private readonly api: VsCodeApi,
  ) {
    const saved = api.getState() as Partial<LocalState> | undefined;
    if (saved && typeof saved === 'object') {
      this.local = {
        draft: typeof saved.draft === 'string' ? saved.draft : '',
        images: Array.isArray(saved.images) ? saved.images : [],
        contexts: Array.isArray(saved.contexts) ? saved.contexts : [],
        editing: saved.editing === true,
      };
    }

    this.modelInput = h('input', { type: 'text', id: 'model', list: 'model-list', spellcheck: 'false', autocomplete: 'off' });
    this.modelList = h('datalist', { id: 'model-list' });
    this.modelInfo = h('span', { class: 'model-info' });
    this.usageTotal = h('span', { class: 'usage-total' });
    this.toolbar = h('div', { class: 'toolbar', role: 'toolbar' });
    this.panel = h('div', { class: 'panel', hidden: true });
    this.log = h('div', { class: 'log', role: 'log', 'aria-live': 'off', tabindex: '0' });
    this.liveRegion = h('div', { class: 'sr-only', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.textarea = h('textarea', { class: 'input', rows: '3' });
    this.attachRow = h('div', { class: 'attachments' });
    this.composerNotes = h('div', { class: 'composer-notes', role: 'status' });
    this.sendBtn = h('button', { type: 'button', class: 'primary send' });
    this.stopBtn = h('button', { type: 'button', class: 'secondary stop', hidden: true });
    this.editBanner = h('div', { class: 'edit-banner', hidden: true });
    this.buildSkeleton();
  }

  /** Starts listening and tells the host the page is ready for messages. */
  start(): void {
    window.addEventListener('message', (ev: MessageEvent) => this.onHostMessage(ev.data));
    document.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape' && this.busyRequestId) {
        ev.preventDefault();
        this.stop();
      }
    });
    // Links never navigate the webview: the host checks them and opens them outside.
    document.addEventListener('click', (ev) => {
      const a = (ev.target as Element | null)?.closest?.('a');
      if (!a) return;
      ev.preventDefault();
      const href = a.getAttribute('href');
      if (href) this.post({ type: 'link/open', href });
    });
    this.post({ type: 'webview/ready' });
  }

  private t(key: WebviewString, ...args: (string | number)[]): string {
    const s = this.strings[key] ?? key;
    return s.replace(/\{(\d+)\}/g, (m, i: string) => {
      const v = args[Number(i)];
      return v === undefined ? m : String(v);
    });
  }

  private post(msg: WebviewMessage): void {
    this.api.postMessage(msg);
  }

  private saveLocal(): void {
    this.api.setState(this.local);
  }

  // -------------------------------------------------------------------------------------------
  // Skeleton

  private buildSkeleton(): void {
    this.root.replaceChildren();
    const header = h('header', { class: 'header' }, this.toolbar, this.panel);
    const composer = h(
      'div',
      { class: 'composer' },
      this.editBanner,
      this.attachRow,
      this.composerNotes,
      this.textarea,
      h('div', { class: 'composer-actions' }, h('span', { class: 'attach-slot' }), h('span', { class: 'spacer' }), this.stopBtn, this.sendBtn),
    );
    this.root.append(header, this.log, composer, this.liveRegion);

    this.textarea.value = this.local.draft;
    this.textarea.addEventListener('input', () => {
      this.local.draft = this.textarea.value;
      this.saveLocal();
    });
    this.textarea.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' && !ev.shiftKey && !ev.isComposing) {
        ev.preventDefault();
        this.send();
      }
    });
    this.textarea.addEventListener('paste', (ev) => {
      const files = [...(ev.clipboardData?.files ?? [])];
      if (files.length) {
        ev.preventDefault();
        void this.addFiles(files);
      }
    });
    this.root.addEventListener('dragover', (ev) => {
      if (ev.dataTransfer?.types.includes('Files')) ev.preventDefault();
    });
    this.root.addEventListener('drop', (ev) => {
      const files = [...(ev.dataTransfer?.files ?? [])];
      if (files.length) {
        ev.preventDefault();
        void this.addFiles(files);
      }
    });
    this.sendBtn.addEventListener('click', () => this.send());
    this.stopBtn.addEventListener('click', () => this.stop());
    this.modelInput.addEventListener('change', () => {
      const model = this.modelInput.value.trim();
      if (this.conversation) this.conversation.model = model === this.defaultModel ? '' : model;
      this.renderModelInfo();
      this.renderAttachments();
      this.post({ type: 'chat/setModel', model });
    });
    this.applyStrings();
  }

  /** (Re)labels everything static; called when the host's localised strings arrive. */
  private applyStrings(): void {
    setImageLabel(this.t('image: {0}'));
    this.toolbar.setAttribute('aria-label', this.t('Chat actions'));
    this.log.setAttribute('aria-label', this.t('Conversation'));
    this.modelInput.setAttribute('aria-label', this.t('Model'));
    this.textarea.setAttribute('aria-label', this.t('Message'));
    this.textarea.placeholder = this.t('Ask about your code, or paste an image…');
    this.sendBtn.replaceChildren(icon('send'), h('span', {}, this.t('Send')));
    this.sendBtn.setAttribute('aria-label', this.t('Send'));
    this.stopBtn.replaceChildren(icon('debug-stop'), h('span', {}, this.t('Stop')));
    this.stopBtn.setAttribute('aria-label', this.t('Stop'));
    this.toolbar.replaceChildren(
      iconButton('add', this.t('New chat'), () => this.post({ type: 'chat/new' })),
      iconButton('history', this.t('History'), () => this.togglePanel('history'), { 'aria-expanded': 'false', 'data-panel': 'history' }),
      h('span', { class: 'model-box' }, icon('hubot'), this.modelInput, this.modelList),
      iconButton('refresh', this.t('Refresh models'), () => this.post({ type: 'models/refresh' })),
      iconButton('settings', this.t('Conversation settings'), () => this.togglePanel('settings'), { 'aria-expanded': 'false', 'data-panel': 'settings' }),
      iconButton('tools', this.t('Tools'), () => this.togglePanel('tools'), { 'aria-expanded': 'false', 'data-panel': 'tools' }),
      iconButton('export', this.t('Export to Markdown'), () => this.post({ type: 'chat/export' })),
      h('span', { class: 'toolbar-info' }, this.modelInfo, this.usageTotal),
    );
    const attachSlot = this.root.querySelector('.attach-slot');
    attachSlot?.replaceChildren(iconButton('file-media', this.t('Attach image'), () => this.post({ type: 'chat/pickImages' })));
    this.editBanner.replaceChildren(
      h('span', {}, this.t('Editing your last message: Send replaces it and asks again.')),
      textButton('close', this.t('Cancel edit'), () => this.setEditing(false)),
    );
    this.renderAttachments();
    this.renderBusy();
    this.renderModelInfo();
  }

  // -------------------------------------------------------------------------------------------
  // Host messages

  /** Entry for every message from the host; invalid ones are ignored (the host logs its own). */
  onHostMessage(data: unknown): void {
    const msg = parseHostMessage(data);
    if (!msg) return;
    this.handle(msg);
  }

  private handle(msg: HostMessage): void {
    switch (msg.type) {
      case 'chat/snapshot':
        this.strings = msg.strings;
        this.maxImageBytes = msg.maxImageBytes;
        this.busyRequestId = msg.busyRequestId;
        this.setConversation(msg.conversation, msg.defaults, msg.defaultModel, msg.defaultSystemPrompt);
        this.applyStrings();
        this.setEditing(this.local.editing);
        return;
      case 'chat/conversation':
        this.setConversation(msg.conversation, msg.defaults, msg.defaultModel, msg.defaultSystemPrompt);
        return;
      case 'chat/message':
        if (msg.requestId === this.unconfirmed?.requestId && msg.message.role === 'user') this.unconfirmed = undefined;
        this.upsertMessage(msg.message);
        return;
      case 'chat/delta':
        this.delta(msg.messageId, msg.content, msg.reasoning);
        return;
      case 'chat/done':
        this.restoreUnconfirmed(msg.requestId);
        if (msg.message) this.upsertMessage(msg.message);
        if (this.busyRequestId === msg.requestId) this.setBusy(undefined);
        this.announce(msg.message?.status === 'stopped' ? this.t('Answer stopped.') : this.t('Answer finished.'));
        return;
      case 'chat/error':
        this.restoreUnconfirmed(msg.requestId);
        if (msg.message) this.upsertMessage(msg.message);
        else this.showStandaloneError(msg.error, msg.requestId);
        if (this.busyRequestId === msg.requestId) this.setBusy(undefined);
        this.announce(`${msg.error.title}. ${msg.error.detail}`);
        return;
      case 'chat/busy':
        if (msg.requestId === this.unconfirmed?.requestId) this.unconfirmed = undefined;
        this.setBusy(msg.requestId);
        return;
      case 'chat/history':
        this.history = msg.entries;
        if (this.openPanel === 'history') this.renderPanel();
        return;
      case 'chat/models':
        this.models = msg.models;
        this.modelsLoading = msg.loading;
        this.renderModels(msg.error);
        return;
      case 'chat/attachments':
        this.local.images.push(...msg.images);
        this.saveLocal();
        this.renderAttachments(msg.problems);
        return;
      case 'chat/context':
        this.local.contexts.push(msg.context);
        if (msg.prompt !== undefined && !this.textarea.value.trim()) {
          this.textarea.value = msg.prompt;
          this.local.draft = msg.prompt;
        }
        this.saveLocal();
        this.renderAttachments();
        this.textarea.focus();
        return;
      case 'chat/notice':
        this.note(msg.text, msg.level);
        return;
      case 'chat/toolCall':
        this.toolCard(msg.update);
        return;
      case 'chat/tools':
        this.tools = msg.tools;
        this.toolChoice = msg.choice;
        if (this.openPanel === 'tools') this.renderPanel();
        return;
      case 'chat/focus':
        this.textarea.focus();
        return;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Conversation rendering

  private setConversation(c: Conversation, defaults: ChatParams, defaultModel: string, defaultSystemPrompt: string): void {
    // An edit belongs to the conversation it started in: Send in another one (or a new chat)
    // would replace that one's last message, or send nothing at all. The typed text stays.
    if (this.conversation && this.conversation.id !== c.id && this.local.editing) this.setEditing(false);
    // Live card states belong to their conversation: ids are unique only within one (relays number
    // calls per answer, so every conversation may have a call_0), and the host forgets its cards
    // on a switch too. The same conversation sent again keeps those of calls it still has: after
    // a regenerate the new answer may get the dropped answer's id, and must not show its result.
    if (this.conversation?.id !== c.id) this.toolUpdates.clear();
    else {
      const calls = new Set(c.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((t) => t.id) : [])));
      for (const id of [...this.toolUpdates.keys()]) if (!calls.has(id)) this.toolUpdates.delete(id);
    }
    this.conversation = c;
    this.defaults = defaults;
    this.defaultModel = defaultModel;
    this.defaultSystemPrompt = defaultSystemPrompt;
    this.live.clear();
    this.cards.clear();
    this.log.replaceChildren();
    if (c.messages.length === 0) {
      this.log.append(h('p', { class: 'empty' }, this.t('Start a conversation. Enter sends, Shift+Enter adds a line, Escape stops the answer.')));
    }
    for (const m of c.messages) this.log.append(this.renderMessage(m));
    this.modelInput.value = c.model || defaultModel;
    this.renderModelInfo();
    this.renderFooters();
    if (this.openPanel === 'settings') this.renderPanel();
    this.scrollToEnd();
  }

  private upsertMessage(m: ChatMessage): void {
    const c = this.conversation;
    if (!c) return;
    const i = c.messages.findIndex((x) => x.id === m.id);
    if (i >= 0) c.messages[i] = m;
    else c.messages.push(m);
    this.log.querySelector('.empty')?.remove();

    const existing = this.articleFor(m.id);
    const liveMsg = this.live.get(m.id);
    if (m.role === 'assistant' && liveMsg && existing) {
      if (m.status === 'streaming') return;
      // Keep the streamed DOM (no re-render of a long answer); finish it and refresh the rest.
      liveMsg.renderer.finish();
      this.live.delete(m.id);
      if (liveMsg.renderer.content !== m.content || this.isJsonAnswer(m)) this.fillBody(existing, m);
      this.fillAssistantExtras(existing, m);
    } else if (existing) {
      existing.replaceWith(this.renderMessage(m));
    } else if (m.role !== 'tool') {
      this.log.append(this.renderMessage(m));
    } else {
      // A tool result: refresh the card of its call.
      this.refreshCardFromHistory(m.toolCallId);
    }
    this.renderFooters();
    this.scrollToEnd();
  }

  private delta(messageId: string, content: string | undefined, reasoning: string | undefined): void {
    const l = this.live.get(messageId);
    if (!l) return;
    if (content) l.renderer.append(content);
    if (reasoning) {
      l.reasoning.appendData(reasoning);
      const details = l.article.querySelector('details.reasoning');
      if (details instanceof HTMLElement) details.hidden = false;
    }
    const c = this.conversation?.messages.find((x) => x.id === messageId);
    if (c?.role === 'assistant') {
      if (content) c.content += content;
      if (reasoning) c.reasoning = (c.reasoning ?? '') + reasoning;
    }
    this.scrollToEndSoon();
  }

  private articleFor(id: string): HTMLElement | undefined {
    for (const el of this.log.children) {
      if (el instanceof HTMLElement && el.dataset.messageId === id) return el;
    }
    return undefined;
  }

  private renderMessage(m: ChatMessage): HTMLElement {
    if (m.role === 'user') return this.renderUser(m);
    if (m.role === 'assistant') return this.renderAssistant(m);
    // Tool results are shown inside the card of their call.
    return h('div', { class: 'tool-result-anchor', hidden: true, 'data-message-id': m.id });
  }

  private renderUser(m: UserMessage): HTMLElement {
    const body = h('div', { class: 'user-text' }, m.text);
    const extras = h('div', { class: 'user-extras' });
    for (const img of m.images) {
      extras.append(h('img', { class: 'thumb', src: img.dataUrl, alt: this.t('Attached image: {0}', img.name) }));
    }
    for (const ctx of m.contexts) {
      extras.append(h('span', { class: 'chip' }, icon('file-code'), this.t('Context: {0}', contextLabel(ctx))));
    }
    return h(
      'article',
      { class: 'msg user', 'data-message-id': m.id, 'aria-label': this.t('You') },
      h('div', { class: 'msg-head' }, icon('account'), h('span', {}, this.t('You')), h('span', { class: 'msg-actions' })),
      body,
      extras.childNodes.length ? extras : undefined,
    );
  }

  private renderAssistant(m: AssistantMessage): HTMLElement {
    const reasoningText = document.createTextNode(m.reasoning ?? '');
    const details = h(
      'details',
      { class: 'reasoning', hidden: !m.reasoning },
      h('summary', {}, icon('lightbulb'), ' ', this.t('Reasoning')),
      h('pre', { class: 'reasoning-text' }, reasoningText),
    );
    const body = h('div', { class: 'md' });
    const article = h(
      'article',
      { class: 'msg assistant', 'data-message-id': m.id, 'aria-label': this.t('Assistant') },
      h('div', { class: 'msg-head' }, icon('sparkle'), h('span', {}, this.t('Assistant')), h('span', { class: 'msg-actions' })),
      details,
      body,
      h('div', { class: 'tool-cards' }),
      h('div', { class: 'msg-extras' }),
    );
    if (m.status === 'streaming') {
      const renderer = new StreamRenderer(body, (block) => {
        decorateCodeBlocks(block, this);
        this.announce(block.textContent?.slice(0, 400) ?? '');
      });
      renderer.append(m.content);
      this.live.set(m.id, { article, renderer, reasoning: reasoningText });
      this.announce(this.t('Answer started.'));
    } else {
      this.fillBody(article, m);
    }
    this.fillAssistantExtras(article, m);
    return article;
  }

  private isJsonAnswer(m: AssistantMessage): boolean {
    const fmt = this.conversation?.params.response_format ?? this.defaults?.response_format;
    return fmt === 'json_object' && m.status === 'done' && m.content.trim() !== '';
  }

  private fillBody(article: HTMLElement, m: AssistantMessage): void {
    const body = article.querySelector('.md');
    if (!(body instanceof HTMLElement)) return;
    if (this.isJsonAnswer(m)) {
      try {
        const pretty = JSON.stringify(JSON.parse(m.content), null, 2);
        body.innerHTML = `<pre><code class="hljs language-json">${highlightCode(pretty, 'json')}</code></pre>`;
        decorateCodeBlocks(body, this);
        return;
      } catch {
        body.innerHTML = renderMarkdown(m.content, { highlight: true });
        body.prepend(h('p', { class: 'notice' }, this.t('Answer not valid JSON; shown as text.')));
        decorateCodeBlocks(body, this);
        return;
      }
    }
    body.innerHTML = renderMarkdown(m.content, { highlight: true });
    decorateCodeBlocks(body, this);
  }

  /** Usage, aligned model, notices, errors and tool cards of an assistant message. */
  private fillAssistantExtras(article: HTMLElement, m: AssistantMessage): void {
    const extras = article.querySelector('.msg-extras');
    if (!(extras instanceof HTMLElement)) return;
    extras.replaceChildren();
    if (m.status === 'stopped') extras.append(h('p', { class: 'notice stopped' }, icon('debug-stop'), ' ', this.t('Stopped.')));
    if (m.finishReason === 'length') {
      extras.append(
        h('p', { class: 'notice' }, icon('warning'), ' ', this.t('The answer hit the token limit (finish reason: length).')),
      );
    }
    if (m.finishReason === 'content_filter') {
      extras.append(
        h(
          'p',
          { class: 'notice filter', role: 'note' },
          icon('shield'),
          ' ',
          this.t('The gateway filtered this answer (finish reason: content_filter). Rephrase the message or ask differently.'),
        ),
      );
    }
    for (const n of m.notices ?? []) extras.append(h('p', { class: 'notice' }, icon('info'), ' ', n));
    if (m.error) extras.append(this.errorBox(m.error, undefined));
    const meta = h('p', { class: 'meta' });
    if (m.usage) {
      meta.append(h('span', { class: 'usage' }, this.t('Tokens: {0} prompt + {1} completion = {2}', m.usage.prompt_tokens, m.usage.completion_tokens, m.usage.total_tokens)));
    }
    if (m.model && m.model !== m.requestedModel) {
      meta.append(h('span', { class: 'aligned' }, this.t('Answered by {0} (asked for {1})', m.model, m.requestedModel)));
    }
    if (meta.childNodes.length) extras.append(meta);
    // Tool cards for calls this message made (from history; live updates refine them).
    const cardsBox = article.querySelector('.tool-cards');
    if (cardsBox instanceof HTMLElement) {
      for (const call of m.toolCalls ?? []) {
        const update = this.toolUpdates.get(call.id) ?? this.historyToolUpdate(call.id, call.function.name, call.function.arguments);
        const card = this.cards.get(call.id) ?? this.buildCard(update);
        this.fillCard(card, update);
        if (card.parentElement !== cardsBox) cardsBox.append(card);
      }
    }
  }

  /** Per-message buttons depend on position (last user / last answer) and on busy state. */
  private renderFooters(): void {
    const c = this.conversation;
    if (!c) return;
    let lastUser: string | undefined;
    let lastAssistant: AssistantMessage | undefined;
    let total = 0;
    for (const m of c.messages) {
      if (m.role === 'user') {
        lastUser = m.id;
        // An answer to an earlier question is not the one Regenerate or Continue would replace.
        lastAssistant = undefined;
      }
      if (m.role === 'assistant') {
        lastAssistant = m;
        total += m.usage?.total_tokens ?? 0;
      }
    }
    // A window that died before the answer came leaves the last question unanswered; the host's
    // regenerate answers it (Edit and resend alone would make the user retype or re-confirm it).
    const unanswered = c.messages.at(-1)?.role === 'user';
    this.usageTotal.textContent = total ? this.t('Conversation total: {0} tokens', total) : '';
    const busy = this.busyRequestId !== undefined;
    for (const el of this.log.children) {
      if (!(el instanceof HTMLElement)) continue;
      const actions = el.querySelector('.msg-actions');
      if (!(actions instanceof HTMLElement)) continue;
      const id = el.dataset.messageId ?? '';
      const msg = c.messages.find((x) => x.id === id);
      actions.replaceChildren();
      if (!msg) continue;
      if (msg.role === 'assistant') {
        actions.append(iconButton('copy', this.t('Copy message'), () => this.post({ type: 'message/copy', messageId: id })));
        if (!busy && msg === lastAssistant && msg.status !== 'streaming') {
          actions.append(iconButton('refresh', this.t('Regenerate'), () => this.request({ type: 'chat/regenerate', requestId: newId('r') })));
          if (msg.finishReason === 'length') {
            actions.append(textButton('debug-continue', this.t('Continue'), () => this.request({ type: 'chat/continue', requestId: newId('r') })));
          }
        }
      } else if (msg.role === 'user' && id === lastUser && !busy) {
        if (unanswered) actions.append(iconButton('refresh', this.t('Regenerate'), () => this.request({ type: 'chat/regenerate', requestId: newId('r') })));
        actions.append(iconButton('edit', this.t('Edit and resend'), () => this.beginEdit(msg)));
      }
    }
  }

  private errorBox(e: ErrorView, requestId: string | undefined): HTMLElement {
    const actions = h('div', { class: 'error-actions' });
    for (const a of e.actions) {
      actions.append(
        textButton(ERROR_ACTION_ICON[a], this.t(ERROR_ACTION_LABEL[a]), () => {
          if (a === 'retry') {
            this.request({ type: 'chat/retry', requestId: newId('r') });
          } else {
            this.post({ type: 'error/action', action: a, requestId: requestId ?? this.lastRequestId });
          }
        }),
      );
    }
    return h('div', { class: 'error', role: 'alert' }, h('p', { class: 'error-title' }, icon('error'), ' ', e.title), h('p', { class: 'error-detail' }, e.detail), actions);
  }

  private showStandaloneError(e: ErrorView, requestId: string): void {
    this.log.querySelectorAll('.standalone-error').forEach((n) => n.remove());
    const box = this.errorBox(e, requestId);
    box.classList.add('standalone-error');
    this.log.append(box);
    this.scrollToEnd();
  }

  // -------------------------------------------------------------------------------------------
  // Tool cards

  private historyToolUpdate(callId: string, name: string, args: string): ToolCallUpdate {
    const result = this.conversation?.messages.find((m) => m.role === 'tool' && m.toolCallId === callId);
    const tool = this.tools.find((x) => x.name === name);
    return {
      callId,
      name,
      argumentsJson: args,
      state: result ? 'done' : 'denied',
      readOnly: tool?.readOnly ?? false,
      resultPreview: result?.role === 'tool' ? result.content.slice(0, 2000) : undefined,
    };
  }

  private refreshCardFromHistory(callId: string): void {
    const card = this.cards.get(callId);
    const prev = this.toolUpdates.get(callId);
    const result = this.conversation?.messages.find((m) => m.role === 'tool' && m.toolCallId === callId);
    if (!card || !prev || result?.role !== 'tool') return;
    if (prev.resultPreview === undefined) this.toolCard({ ...prev, resultPreview: result.content.slice(0, 2000) });
  }

  /** Creates or updates a card (host: `postToolCall`). */
  private toolCard(u: ToolCallUpdate): void {
    this.toolUpdates.set(u.callId, u);
    let card = this.cards.get(u.callId);
    if (!card) {
      card = this.buildCard(u);
      const owner = [...this.log.querySelectorAll<HTMLElement>('article.assistant')].find((a) => {
        const m = this.conversation?.messages.find((x) => x.id === a.dataset.messageId);
        return m?.role === 'assistant' && m.toolCalls?.some((tc) => tc.id === u.callId);
      });
      const box = (owner ?? [...this.log.querySelectorAll<HTMLElement>('article.assistant')].pop())?.querySelector('.tool-cards');
      (box ?? this.log).append(card);
    }
    this.fillCard(card, u);
    if (u.state === 'awaiting-approval') {
      this.announce(`${this.t('Tool call: {0}', u.name)}: ${this.t('Waiting for your approval')}`);
      card.querySelector<HTMLButtonElement>('.tc-actions button')?.focus();
    }
    this.scrollToEndSoon();
  }

  private buildCard(u: ToolCallUpdate): HTMLElement {
    const card = h('section', { class: 'toolcard', 'data-call-id': u.callId, 'aria-label': this.t('Tool call: {0}', u.name) });
    this.cards.set(u.callId, card);
    return card;
  }

  private fillCard(card: HTMLElement, u: ToolCallUpdate): void {
    card.className = `toolcard state-${u.state}`;
    let args = u.argumentsJson;
    try {
      args = JSON.stringify(JSON.parse(u.argumentsJson), null, 2);
    } catch {
      // Invalid JSON from the model is shown as it came; the tools side answers the model.
    }
    const argsPre = h('pre', {}, h('code', { class: 'hljs language-json' }));
    const code = argsPre.firstElementChild;
    if (code) code.innerHTML = highlightCode(args, 'json');
    const actions = h('div', { class: 'tc-actions' });
    if (u.state === 'awaiting-approval') {
      const decide = (decision: 'allow' | 'deny' | 'alwaysAllow') => {
        actions.querySelectorAll('button').forEach((b) => (b.disabled = true));
        this.post({ type: 'chat/toolDecision', callId: u.callId, decision });
      };
      actions.append(
        textButton('check', this.t('Allow'), () => decide('allow'), { class: 'text-btn primary' }),
        textButton('close', this.t('Deny'), () => decide('deny')),
      );
      if (u.readOnly) actions.append(textButton('check-all', this.t('Always allow'), () => decide('alwaysAllow')));
    }
    const parts: (HTMLElement | undefined)[] = [
      h(
        'div',
        { class: 'tc-head' },
        icon('tools'),
        h('strong', { class: 'tc-name' }, u.name),
        u.readOnly ? h('span', { class: 'badge' }, this.t('read-only')) : undefined,
        h('span', { class: 'tc-state', role: 'status' }, stateIcon(u.state), ' ', this.t(TOOL_STATE_LABEL[u.state])),
      ),
      h('details', { class: 'tc-args', open: u.state === 'awaiting-approval' }, h('summary', {}, this.t('Arguments')), argsPre),
      actions.childNodes.length ? actions : undefined,
      u.resultPreview !== undefined
        ? h('details', { class: 'tc-result' }, h('summary', {}, this.t('Result')), h('pre', {}, u.resultPreview))
        : undefined,
    ];
    card.replaceChildren(...parts.filter((p): p is HTMLElement => p !== undefined));
  }

  // -------------------------------------------------------------------------------------------
  // Composer

  private request(msg: Extract<WebviewMessage, { requestId: string }>): void {
    if (this.busyRequestId) return;
    this.lastRequestId = msg.requestId;
    this.setBusy(msg.requestId);
    this.post(msg);
  }

  private send(): void {
    if (this.busyRequestId) return;
    const text = this.textarea.value;
    if (!text.trim() && this.local.images.length === 0 && this.local.contexts.length === 0) return;
    const requestId = newId('r');
    this.unconfirmed = { requestId, text, images: this.local.images, contexts: this.local.contexts, editing: this.local.editing };
    if (this.local.editing) {
      this.request({ type: 'chat/editResend', requestId, text });
    } else {
      this.request({ type: 'chat/send', requestId, text, images: this.local.images, contexts: this.local.contexts });
      this.local.images = [];
      this.local.contexts = [];
    }
    this.textarea.value = '';
    this.local.draft = '';
    this.setEditing(false);
    this.renderAttachments();
  }

  /** Puts back what a refused Send took out of the composer (keeping anything typed since). */
  private restoreUnconfirmed(requestId: string): void {
    const u = this.unconfirmed;
    if (!u || u.requestId !== requestId) return;
    this.unconfirmed = undefined;
    if (!this.textarea.value.trim()) {
      this.textarea.value = u.text;
      this.local.draft = u.text;
    }
    if (!u.editing) {
      this.local.images = [...u.images, ...this.local.images];
      this.local.contexts = [...u.contexts, ...this.local.contexts];
    }
    if (u.editing && this.textarea.value === u.text) this.setEditing(true);
    this.saveLocal();
    this.renderAttachments();
  }

  private stop(): void {
    const id = this.busyRequestId;
    if (!id) return;
    this.post({ type: 'chat/cancel', requestId: id });
  }

  private setBusy(requestId: string | undefined): void {
    this.busyRequestId = requestId;
    this.renderBusy();
    this.renderFooters();
  }

  private renderBusy(): void {
    const busy = this.busyRequestId !== undefined;
    this.stopBtn.hidden = !busy;
    this.sendBtn.hidden = busy;
    this.root.classList.toggle('busy', busy);
  }

  private beginEdit(m: UserMessage): void {
    this.textarea.value = m.text;
    this.local.draft = m.text;
    this.setEditing(true);
    this.textarea.focus();
  }

  private setEditing(on: boolean): void {
    this.local.editing = on;
    this.editBanner.hidden = !on;
    this.saveLocal();
  }

  private async addFiles(files: File[]): Promise<void> {
    const problems: string[] = [];
    for (const f of files) {
      if (!f.type.startsWith('image/')) {
        problems.push(this.t('{0} is not an image.', f.name));
        continue;
      }
      if (f.size > this.maxImageBytes) {
        problems.push(this.t('{0} is {1} MB; the limit is {2} MB (setting gatewayStudio.chat.maxImageMegabytes).', f.name, mb(f.size), mb(this.maxImageBytes)));
        continue;
      }
      const dataUrl = await readAsDataUrl(f);
      this.local.images.push({ name: f.name || 'pasted-image.png', mime: f.type, dataUrl, bytes: f.size });
    }
    for (const p of problems) this.post({ type: 'chat/imageRejected', name: p.slice(0, 200), reason: p });
    this.saveLocal();
    this.renderAttachments(problems);
  }

  private renderAttachments(problems: string[] = []): void {
    this.attachRow.replaceChildren();
    this.local.images.forEach((img, i) => {
      this.attachRow.append(
        h(
          'span',
          { class: 'attachment' },
          h('img', { class: 'thumb', src: img.dataUrl, alt: this.t('Attached image: {0}', img.name) }),
          iconButton('close', `${this.t('Remove attachment')}: ${img.name}`, () => {
            this.local.images.splice(i, 1);
            this.saveLocal();
            this.renderAttachments();
          }),
        ),
      );
    });
    this.local.contexts.forEach((ctx, i) => {
      this.attachRow.append(
        h(
          'span',
          { class: 'chip' },
          icon('file-code'),
          h('span', {}, contextLabel(ctx)),
          iconButton('close', `${this.t('Remove context')}: ${ctx.fileName}`, () => {
            this.local.contexts.splice(i, 1);
            this.saveLocal();
            this.renderAttachments();
          }),
        ),
      );
    });
    this.composerNotes.replaceChildren();
    for (const p of problems) this.composerNotes.append(h('p', { class: 'warning' }, icon('warning'), ' ', p));
    const model = this.currentModel();
    const info = this.models.find((m) => m.id === model);
    if (this.local.images.length && info && !info.supportsImages) {
      this.composerNotes.append(h('p', { class: 'warning' }, icon('warning'), ' ', this.t('{0} does not list image input; the gateway may refuse the attached images.', model)));
    }
  }

  private note(text: string, level: 'info' | 'warning' | 'error'): void {
    this.composerNotes.append(h('p', { class: level }, icon(level === 'info' ? 'info' : level), ' ', text));
    this.announce(text);
  }

  // -------------------------------------------------------------------------------------------
  // Models

  private currentModel(): string {
    return this.conversation?.model || this.defaultModel;
  }

  private renderModels(error: ErrorView | undefined): void {
    this.modelList.replaceChildren(
      ...this.models.map((m) => h('option', { value: m.id }, m.capabilities.length ? `${m.id} — ${m.capabilities.join(', ')}` : m.id)),
    );
    this.renderModelInfo();
    if (error) this.note(`${error.title}: ${error.detail}`, 'warning');
  }

  private renderModelInfo(): void {
    const model = this.currentModel();
    const info = this.models.find((m) => m.id === model);
    this.modelInfo.replaceChildren();
    if (this.modelsLoading) {
      this.modelInfo.append(this.t('Loading models…'));
    } else if (info) {
      this.modelInfo.append(icon(info.supportsImages ? 'file-media' : 'circle-slash'), ' ', info.supportsImages ? this.t('Supports images') : this.t('No image input listed'));
    } else if (model && this.models.length) {
      this.modelInfo.append(this.t('Custom model id: not in the list from /v1/models, sent as typed.'));
    }
  }

  // -------------------------------------------------------------------------------------------
  // Panels: history, settings, tools

  private togglePanel(which: 'history' | 'settings' | 'tools'): void {
    this.openPanel = this.openPanel === which ? undefined : which;
    if (this.openPanel === 'history') this.post({ type: 'history/list' });
    this.renderPanel();
  }

  private renderPanel(): void {
    for (const b of this.toolbar.querySelectorAll<HTMLElement>('[data-panel]')) {
      b.setAttribute('aria-expanded', String(b.dataset.panel === this.openPanel));
    }
    this.panel.hidden = !this.openPanel;
    this.panel.replaceChildren();
    if (!this.openPanel) return;
    const close = iconButton('close', this.t('Close'), () => this.togglePanel(this.openPanel ?? 'history'));
    if (this.openPanel === 'history') this.renderHistory(close);
    else if (this.openPanel === 'settings') this.renderSettings(close);
    else this.renderTools(close);
  }

  private renderHistory(close: HTMLElement): void {
    const list = h('ul', { class: 'history-list' });
    if (this.history.length === 0) list.append(h('li', { class: 'empty' }, this.t('No conversations yet.')));
    for (const e of this.history) {
      const title = e.title || e.id;
      const li = h('li', { class: e.id === this.conversation?.id ? 'active' : '' });
      const open = h('button', { type: 'button', class: 'history-open', 'aria-label': `${this.t('Open')}: ${title}` }, title);
      open.addEventListener('click', () => {
        this.post({ type: 'history/open', conversationId: e.id });
        this.togglePanel('history');
      });
      const rename = iconButton('edit', `${this.t('Rename')}: ${title}`, () => {
        const input = h('input', { type: 'text', value: title, 'aria-label': this.t('New name') });
        const commit = () => {
          const v = input.value.trim();
          if (v && v !== title) this.post({ type: 'history/rename', conversationId: e.id, title: v });
          else this.renderPanel();
        };
        input.addEventListener('keydown', (ev) => {
          if (ev.key === 'Enter') commit();
          if (ev.key === 'Escape') {
            ev.stopPropagation();
            this.renderPanel();
          }
        });
        input.addEventListener('blur', commit);
        open.replaceWith(input);
        input.focus();
        input.select();
      });
      let armed = false;
      const del = iconButton('trash', `${this.t('Delete')}: ${title}`, () => {
        if (!armed) {
          armed = true;
          del.classList.add('armed');
          del.setAttribute('aria-label', this.t('Delete "{0}"?', title));
          del.title = this.t('Delete "{0}"?', title);
          return;
        }
        this.post({ type: 'history/delete', conversationId: e.id });
      });
      li.append(open, h('span', { class: 'spacer' }), rename, del);
      list.append(li);
    }
    this.panel.append(h('section', { class: 'panel-body', 'aria-label': this.t('History') }, h('div', { class: 'panel-head' }, h('h2', {}, this.t('History')), close), list));
  }

  private renderSettings(close: HTMLElement): void {
    const c = this.conversation;
    const d = this.defaults;
    if (!c || !d) return;
    const p = c.params;
    const field = (label: string, input: HTMLElement, hint?: string) =>
      h('label', { class: 'field' }, h('span', {}, label), input, hint ? h('small', {}, hint) : undefined);
    const num = (key: 'temperature' | 'top_p' | 'max_tokens' | 'presence_penalty' | 'frequency_penalty', min: number, max: number | undefined, step: string) => {
      const v = p[key];
      const input = h('input', { type: 'number', min: String(min), max: max === undefined ? undefined : String(max), step, value: v === undefined || v === null ? '' : String(v), 'data-key': key, placeholder: d[key] === null ? '' : String(d[key]) });
      return input;
    };
    const sys = h('textarea', { rows: '3', 'data-key': 'systemPrompt', placeholder: this.defaultSystemPrompt }, c.systemPrompt ?? '');
    const fmt = h(
      'select',
      { 'data-key': 'response_format' },
      h('option', { value: '' }, `(${d.response_format})`),
      h('option', { value: 'text', selected: p.response_format === 'text' }, this.t('Text')),
      h('option', { value: 'json_object', selected: p.response_format === 'json_object' }, this.t('JSON object')),
    );
    const stop = h('textarea', { rows: '2', 'data-key': 'stop', placeholder: d.stop.join('\n') }, (p.stop ?? []).join('\n'));
    const stream = h('input', { type: 'checkbox', checked: p.stream ?? d.stream });
    const user = h('input', { type: 'text', value: p.user ?? '', placeholder: d.user });
    const inputs = {
      temperature: num('temperature', 0, 2, '0.1'),
      top_p: num('top_p', 0, 1, '0.05'),
      max_tokens: num('max_tokens', 1, undefined, '1'),
      presence_penalty: num('presence_penalty', -2, 2, '0.1'),
      frequency_penalty: num('frequency_penalty', -2, 2, '0.1'),
    };
    const apply = textButton('check', this.t('Apply'), () => {
      const params: ParamOverrides = {};
      for (const [k, el] of Object.entries(inputs)) {
        if (el.value.trim() !== '') params[k as keyof typeof inputs] = Number(el.value);
      }
      const stops = stop.value.split('\n').map((s) => s).filter((s) => s !== '');
      if (stops.length) params.stop = stops;
      if (fmt.value === 'text' || fmt.value === 'json_object') params.response_format = fmt.value;
      if (stream.checked !== d.stream) params.stream = stream.checked;
      if (user.value.trim()) params.user = user.value.trim();
      this.post({ type: 'chat/setParams', params, systemPrompt: sys.value === '' ? null : sys.value });
    }, { class: 'text-btn primary' });
    const reset = textButton('discard', this.t('Use defaults'), () => this.post({ type: 'chat/setParams', params: {}, systemPrompt: null }));
    const hint = (v: unknown) => this.t('Empty uses the setting ({0}).', v === null || v === '' ? '—' : String(v));
    this.panel.append(
      h(
        'section',
        { class: 'panel-body settings', 'aria-label': this.t('Conversation settings') },
        h('div', { class: 'panel-head' }, h('h2', {}, this.t('Conversation settings')), close),
        field(this.t('System prompt'), sys),
        h(
          'div',
          { class: 'grid' },
          field(this.t('Temperature'), inputs.temperature, hint(d.temperature)),
          field(this.t('Top P'), inputs.top_p, hint(d.top_p)),
          field(this.t('Max tokens'), inputs.max_tokens, hint(d.max_tokens)),
          field(this.t('Presence penalty'), inputs.presence_penalty, hint(d.presence_penalty)),
          field(this.t('Frequency penalty'), inputs.frequency_penalty, hint(d.frequency_penalty)),
          field(this.t('Response format'), fmt),
        ),
        field(this.t('Stop sequences (one per line, up to 4)'), stop),
        field(this.t('End-user id'), user, hint(d.user)),
        h('label', { class: 'check' }, stream, h('span', {}, this.t('Stream the answer'))),
        h('div', { class: 'panel-actions' }, reset, apply),
      ),
    );
  }

  private renderTools(close: HTMLElement): void {
    const list = h('ul', { class: 'tools-list' });
    if (this.tools.length === 0) list.append(h('li', { class: 'empty' }, this.t('No tools are available.')));
    for (const tool of this.tools) {
      const enabled = h('input', { type: 'checkbox', checked: tool.enabled, 'aria-label': `${this.t('Enabled')}: ${tool.name}` });
      enabled.addEventListener('change', () => this.post({ type: 'tools/setEnabled', name: tool.name, enabled: enabled.checked }));
      const trusted = h('input', { type: 'checkbox', checked: tool.trusted, 'aria-label': `${this.t('Always allow (trusted)')}: ${tool.name}` });
      trusted.addEventListener('change', () => this.post({ type: 'tools/setTrusted', name: tool.name, trusted: trusted.checked }));
      list.append(
        h(
          'li',
          {},
          h('div', {}, h('strong', {}, tool.name), tool.readOnly ? h('span', { class: 'badge' }, this.t('read-only')) : undefined),
          h('small', {}, tool.description),
          h('div', { class: 'tool-toggles' }, h('label', {}, enabled, this.t('Enabled')), h('label', {}, trusted, this.t('Always allow (trusted)'))),
        ),
      );
    }
    const choice = h(
      'select',
      { 'aria-label': this.t('Tool choice') },
      h('option', { value: 'auto', selected: this.toolChoice === 'auto' }, this.t('Automatic')),
      h('option', { value: 'none', selected: this.toolChoice === 'none' }, this.t('None (answer without tools)')),
      ...this.tools
        .filter((x) => x.enabled)
        .map((x) => h('option', { value: `tool:${x.name}`, selected: typeof this.toolChoice === 'object' && this.toolChoice.name === x.name }, this.t('Always call {0}', x.name))),
    );
    choice.addEventListener('change', () => {
      const v = choice.value;
      const next: ToolChoiceSetting = v === 'auto' || v === 'none' ? v : { name: v.slice('tool:'.length) };
      this.post({ type: 'tools/setChoice', choice: next });
    });
    this.panel.append(
      h(
        'section',
        { class: 'panel-body', 'aria-label': this.t('Tools') },
        h('div', { class: 'panel-head' }, h('h2', {}, this.t('Tools')), close),
        h('label', { class: 'field' }, h('span', {}, this.t('Tool choice')), choice),
        list,
      ),
    );
  }

  // -------------------------------------------------------------------------------------------
  // Helpers used by code-block decoration

  /** Posts a code-block action. */
  codeAction(kind: 'copy' | 'insert' | 'open', code: string, language: string): void {
    if (kind === 'copy') {
      this.post({ type: 'code/copy', code });
      this.announce(this.t('Copied.'));
    } else if (kind === 'insert') this.post({ type: 'code/insert', code, language });
    else this.post({ type: 'code/open', code, language });
  }

  /** Localised label lookup for decoration code. */
  label(key: WebviewString): string {
    return this.t(key);
  }

  private announce(text: string): void {
    if (text) this.liveRegion.textContent = text;
  }

  private scrollPending = false;
  private scrollToEndSoon(): void {
    if (this.scrollPending) return;
    this.scrollPending = true;
    requestAnimationFrame(() => {
      this.scrollPending = false;
      this.scrollToEnd();
    });
  }

  private scrollToEnd(): void {
    // Only follow the answer when the user has not scrolled up to read something.
    const nearEnd = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 120;
    if (nearEnd || this.busyRequestId) this.log.scrollTop = this.log.scrollHeight;
  }
}

function contextLabel(ctx: EditorContext): string {
  const name = ctx.fileName.split(/[\\/]/).pop() ?? ctx.fileName;
  return ctx.startLine !== undefined ? `${name}:${ctx.startLine + 1}-${(ctx.endLine ?? ctx.startLine) + 1}` : name;
}

function stateIcon(state: ToolCallUpdate['state']): HTMLElement {
  const name = { 'awaiting-approval': 'question', running: 'loading', done: 'pass', denied: 'circle-slash', error: 'error' }[state];
  const el = icon(name);
  if (state === 'running') el.classList.add('codicon-modifier-spin');
  return el;
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

/** Adds Copy / Insert / Open buttons above every finished code block under `root`. */
export function decorateCodeBlocks(root: HTMLElement, app: Pick<ChatApp, 'codeAction' | 'label'>): void {
  for (const pre of root.querySelectorAll('pre')) {
    if (pre.parentElement?.classList.contains('codeblock')) continue;
    const code = pre.querySelector('code');
    const lang = /language-([\w+#-]+)/.exec(code?.className ?? '')?.[1] ?? '';
    const text = () => (code ?? pre).textContent ?? '';
    const bar = h(
      'div',
      { class: 'codeblock-bar' },
      h('span', { class: 'lang' }, lang),
      h('span', { class: 'spacer' }),
      iconButton('copy', app.label('Copy code'), () => app.codeAction('copy', text(), lang)),
      iconButton('insert', app.label('Insert at cursor'), () => app.codeAction('insert', text(), lang)),
      iconButton('go-to-file', app.label('Open in new editor'), () => app.codeAction('open', text(), lang)),
    );
    const wrap = h('div', { class: 'codeblock', role: 'group', 'aria-label': app.label('Code block') });
    pre.replaceWith(wrap);
    wrap.append(bar, pre);
  }
}
