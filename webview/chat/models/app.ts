/**
 * The chat page's models, one per capability, composed once per page (app.tsx) and handed to the
 * components through a Preact context (useChat.ts). A host message goes to the model that owns
 * its namespace (routes.ts); the conversation's own messages (`chat/*`) change what several
 * capabilities show, so they are composed here.
 */
import { batch } from '@preact/signals';
import { asMessage } from '../../../src/shared/protocol/guard';
import type { ChatParams, Conversation, HostMessage } from '../../../src/shared/protocol';
import { panelsCode } from '../lazy';
import { setImageLabel } from '../markdown';
import { afterRender, announce, els, flush } from '../runtime';
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

export function createChatApp() {
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
  const panels = createPanelsModel({ loaded: () => panelsCode.value.peek() !== undefined, load: panelsCode.load });

  function showConversation(c: Conversation, d: ChatParams, model: string, systemPrompt: string): void {
    const previous = conversation.show(c, d, model, systemPrompt);
    context.compaction.value = c.compaction;
    // An edit belongs to the conversation it started in: Send in another one (or a new chat)
    // would replace that one's last message, or send nothing at all. The typed text stays.
    if (previous !== undefined && previous !== c.id) composer.setEditing(false);
    if (previous !== c.id) checkpoints.reset();
    tools.showConversation(c.messages, previous === c.id);
  }

  function onChat(msg: HostMessageIn<'chat'>): void {
    switch (msg.type) {
      case 'chat/snapshot':
        strings.strings.value = msg.strings;
        setImageLabel(t('image: {0}'));
        composer.maxImageBytes.value = msg.maxImageBytes;
        conversation.busyRequestId.value = msg.busyRequestId;
        showConversation(msg.conversation, msg.defaults, msg.defaultModel, msg.defaultSystemPrompt);
        composer.renderAttachments();
        // A panel opened from the keyboard has focus before its page has content: the message box
        // takes it once it exists.
        afterRender(() => {
          if (document.hasFocus()) keepFocus();
        });
        return;
      case 'chat/conversation':
        showConversation(msg.conversation, msg.defaults, msg.defaultModel, msg.defaultSystemPrompt);
        return;
      case 'chat/message':
        if (msg.message.role === 'user') composer.confirm(msg.requestId);
        if (conversation.upsert(msg.message)) tools.messageShown(msg.message);
        return;
      case 'chat/delta':
        conversation.delta(msg.messageId, msg.content, msg.reasoning);
        return;
      case 'chat/done':
        composer.restoreUnconfirmed(msg.requestId);
        if (msg.message && conversation.upsert(msg.message)) tools.messageShown(msg.message);
        conversation.ended(msg.requestId);
        afterRender(() => {
          conversation.announceAnswer(msg.message);
          keepFocus();
        });
        return;
      case 'chat/error':
        composer.restoreUnconfirmed(msg.requestId);
        if (msg.message) {
          if (conversation.upsert(msg.message)) tools.messageShown(msg.message);
        } else conversation.showStandaloneError(msg.error, msg.requestId);
        conversation.ended(msg.requestId);
        afterRender(() => {
          announce(`${msg.error.title}. ${msg.error.detail}`);
          keepFocus();
        });
        return;
      case 'chat/busy':
        composer.confirm(msg.requestId);
        conversation.busyRequestId.value = msg.requestId;
        return;
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
  }

  const routes: HostRoutes = {
    chat: onChat,
    history: history.onHost,
    models: modelList.onHost,
    images: composer.onHost,
    tools: tools.onHost,
    checkpoints: checkpoints.onHost,
    mentions: mentions.onHost,
    context: context.onHost,
    prompt: rules.onHost,
    profiles: profiles.onHost,
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
    panels,
    onHostMessage,
  };
}

export type ChatApp = ReturnType<typeof createChatApp>;
