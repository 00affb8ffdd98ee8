/**
 * The chat page's models, one per capability, composed once per page (app.tsx) and handed to the
 * components through a Preact context (useChat.ts). A host message goes to the model that owns
 * its namespace (routes.ts); the conversation's own messages (`chat/*`) change what several
 * capabilities show, so they are composed here.
 */
import { batch } from '@preact/signals';
import { asMessage } from '../../../src/shared/protocol/guard';
import type { ChatMessage, ChatParams, Conversation, HostMessage } from '../../../src/shared/protocol';
import { panelsCode, queueCode, slashCode } from '../lazy';
import { afterRender, announce, els, flush } from '../runtime';
import { createAgentsModel } from './agents';
import { createCheckpointsModel } from './checkpoints';
import { createComposerModel } from './composer';
import { createContextModel } from './context';
import { createConversationModel } from './conversation';
import { createHistoryModel } from './history';
import { createMentionsModel } from './mentions';
import { createModelListModel } from './modelList';
import { createPanelsModel } from './panels';
import { createProfilesModel } from './profiles';
import { route, type HostMessageIn, type HostRoutes } from './routes';
import { createRulesModel } from './rules';
import { createStringsModel } from './strings';
import { createToolsModel } from './tools';

/**
 * The Stop button that had focus is hidden once the answer ends, and a hidden element loses
 * focus to the page: focus goes back to the message box, where the next question is typed.
 */
function keepFocus(): void {
  const a = document.activeElement;
  if (!a || a === document.body || (a instanceof HTMLElement && a.offsetParent === null)) els.textarea?.focus();
}

/** What the models need of the page's renderer: the markdown's label for an image it does not load. */
export interface ChatRenderer {
  setImageLabel(label: string): void;
}

/** One model per capability, wired to the ones they read. */
function createModels() {
  const strings = createStringsModel();
  const { t } = strings;
  const conversation = createConversationModel({ t });
  const profiles = createProfilesModel();
  const modelList = createModelListModel({ note: (text, level) => composer.note(text, level) });
  const composer = createComposerModel({ conversation, modelList, t });
  const mentions = createMentionsModel({ composer });
  const tools = createToolsModel({ conversation, t });
  const checkpoints = createCheckpointsModel({ conversation });
  const context = createContextModel({ conversation });
  const rules = createRulesModel();
  const history = createHistoryModel();
  const agents = createAgentsModel({
    conversation,
    draft: (text) => {
      composer.draft.value = text;
      afterRender(() => els.textarea?.focus());
    },
  });
  const panels = createPanelsModel({ loaded: () => panelsCode.value.peek() !== undefined, load: panelsCode.load });
  return {
    t,
    strings,
    conversation,
    composer,
    mentions,
    tools,
    checkpoints,
    context,
    rules,
    history,
    modelList,
    profiles,
    agents,
    panels,
  };
}

type Models = ReturnType<typeof createModels>;

/** The `chat/*` messages, which change what several models show. */
function chatHandler(m: Models, renderer: ChatRenderer): (msg: HostMessageIn<'chat'>) => void {
  const { conversation, composer, tools, checkpoints, context, strings } = m;

  function showConversation(c: Conversation, d: ChatParams, model: string, systemPrompt: string): void {
    const previous = conversation.show(c, d, model, systemPrompt);
    context.compaction.value = c.compaction;
    // An edit belongs to the conversation it started in: Send in another one (or a new chat)
    // would replace that one's last message, or send nothing at all. The typed text stays.
    if (previous !== undefined && previous !== c.id) composer.setEditing(false);
    if (previous !== c.id) checkpoints.reset();
    tools.showConversation(c.messages, previous === c.id);
  }

  /** A message of the conversation, if the conversation takes it (its tool cards follow it). */
  function upsert(message: ChatMessage | undefined): void {
    if (message && conversation.upsert(message)) tools.messageShown(message);
  }

  /** A request ended, answered or not: focus back to the message box once it is rendered. */
  function ended(msg: Extract<HostMessageIn<'chat'>, { type: 'chat/done' | 'chat/error' }>): void {
    composer.restoreUnconfirmed(msg.requestId);
    if (msg.message) upsert(msg.message);
    else if (msg.type === 'chat/error') conversation.showStandaloneError(msg.error, msg.requestId);
    conversation.ended(msg.requestId);
    afterRender(() => {
      if (msg.type === 'chat/done') conversation.announceAnswer(msg.message);
      else announce(`${msg.error.title}. ${msg.error.detail}`);
      keepFocus();
    });
  }

  /** The messages of a conversation shown, and of a request running or ending. */
  function onTurn(msg: HostMessageIn<'chat'>): boolean {
    switch (msg.type) {
      case 'chat/snapshot':
        strings.strings.value = msg.strings;
        renderer.setImageLabel(m.t('image: {0}'));
        composer.maxImageBytes.value = msg.maxImageBytes;
        conversation.busyRequestId.value = msg.busyRequestId;
        showConversation(msg.conversation, msg.defaults, msg.defaultModel, msg.defaultSystemPrompt);
        composer.renderAttachments();
        // A panel opened from the keyboard has focus before its page has content: the message box
        // takes it once it exists.
        afterRender(() => {
          if (document.hasFocus()) keepFocus();
        });
        return true;
      case 'chat/conversation':
        showConversation(msg.conversation, msg.defaults, msg.defaultModel, msg.defaultSystemPrompt);
        return true;
      case 'chat/message':
        if (msg.message.role === 'user') composer.confirm(msg.requestId);
        upsert(msg.message);
        return true;
      case 'chat/delta':
        conversation.delta(msg.messageId, msg.content, msg.reasoning);
        return true;
      case 'chat/done':
      case 'chat/error':
        ended(msg);
        return true;
      case 'chat/busy':
        composer.confirm(msg.requestId);
        conversation.busyRequestId.value = msg.requestId;
        return true;
      default:
        return false;
    }
  }

  return (msg) => {
    if (onTurn(msg)) return;
    switch (msg.type) {
      case 'chat/cost':
        conversation.setCost(msg.conversationId, msg.messageId, msg.cost);
        return;
      case 'chat/context':
        composer.addContext(msg.context, msg.prompt);
        return;
      case 'chat/notice':
        composer.note(msg.text, msg.level);
        return;
      case 'chat/focus':
        afterRender(() => els.textarea?.focus());
        return;
    }
  };
}

/** The chat page's models composed, and the entry for every host message. */
export function createChatApp(renderer: ChatRenderer) {
  const models = createModels();
  const routes: HostRoutes = {
    chat: chatHandler(models, renderer),
    history: models.history.onHost,
    models: models.modelList.onHost,
    images: models.composer.onHost,
    tools: models.tools.onHost,
    checkpoints: models.checkpoints.onHost,
    mentions: models.mentions.onHost,
    context: models.context.onHost,
    prompt: models.rules.onHost,
    profiles: models.profiles.onHost,
    // The menu's model is in its chunk, loaded before the menu asked for anything.
    slash: (msg) => slashCode.value.peek()?.slashModel(models.composer).onHost(msg),
    agents: models.agents.onHost,
    // The spend caps' card and pre-send line live in the panels' chunk (the first paint is full).
    caps: (msg) => void panelsCode.load().then((p) => p?.onCaps(models, msg)),
    queue: (msg) => void queueCode.load().then((q) => q?.onHost(models, msg)),
  };

  /**
   * Entry for every message from the host (src/shared/protocol/guard.ts says why it is not parsed
   * again here): applied in one batch, then rendered before returning (see runtime.flush).
   */
  function onHostMessage(data: unknown): void {
    const msg = asMessage<HostMessage>(data);
    if (!msg) return;
    batch(() => route(routes, msg));
    flush();
  }

  return { ...models, onHostMessage };
}

export type ChatApp = ReturnType<typeof createChatApp>;
