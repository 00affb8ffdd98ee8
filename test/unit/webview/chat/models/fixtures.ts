/** Messages and conversations as the host sends them, for the chat page's model tests. */
import { DEFAULT_CHAT_PARAMS } from '../../../../../src/shared/chatParams';
import type {
  AssistantMessage,
  ChatMessage,
  Conversation,
  ToolResultMessage,
  UserMessage,
} from '../../../../../src/shared/protocol';
import type { GalleryTask } from '../../../../../src/shared/protocol/gallery';

export const DEFAULTS = { ...DEFAULT_CHAT_PARAMS, stop: [] };

export const user = (id: string, text = `question ${id}`): UserMessage => ({
  id,
  role: 'user',
  text,
  images: [],
  contexts: [],
  createdAt: 1,
});

export const answer = (id: string, extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
  id,
  role: 'assistant',
  content: `answer ${id}`,
  status: 'done',
  requestedModel: 'gw-chat',
  createdAt: 2,
  ...extra,
});

export const toolResult = (id: string, toolCallId: string, content = 'result'): ToolResultMessage => ({
  id,
  role: 'tool',
  toolCallId,
  name: 'read_file',
  content,
  createdAt: 3,
});

export const conversation = (id: string, messages: ChatMessage[] = [], extra: Partial<Conversation> = {}) => ({
  id,
  title: '',
  createdAt: 1,
  updatedAt: 1,
  model: '',
  params: {},
  messages,
  ...extra,
});

export const USD = { kind: 'USD', quotaPerUnit: 500_000, rateMicro: 1_000_000, symbol: '$' } as const;

/** A video task as a tool card shows it. */
export const task = (over: Partial<GalleryTask> & { key: string }): GalleryTask => ({
  prompt: `prompt of ${over.key}`,
  model: 'vendor-image-video',
  images: [],
  state: 'saved',
  stateLabel: 'saved',
  createdAt: 1,
  running: false,
  canResume: false,
  ...over,
});
