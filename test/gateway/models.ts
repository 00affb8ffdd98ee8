/** The models each host lists, and what each can do. */

/** A model record as `GET /v1/models` lists it (spec 2.3). */
export interface ModelRecord {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  capabilities: string[];
  modalities: string[];
}

const CREATED = 1_767_225_600; // 2026-01-01, fixed so answers are reproducible

function model(id: string, owner: string, capabilities: string[], modalities: string[]): ModelRecord {
  return { id, object: 'model', created: CREATED, owned_by: owner, capabilities, modalities };
}

/** Video models (listed on both hosts). */
export const VIDEO_MODELS: readonly ModelRecord[] = [
  model('vendor-image-video', 'vendor', ['video', 'image'], ['video']),
  model('vendor-video-1.5', 'vendor', ['video', 'image'], ['video']),
];

/** Chat models (chat host only). */
export const CHAT_MODELS: readonly ModelRecord[] = [
  model('gw-chat', 'gateway-studio', ['streaming', 'tools'], ['text']),
  model('gw-vision', 'gateway-studio', ['streaming', 'tools', 'image'], ['text', 'image']),
  model('gw-reasoner', 'gateway-studio', ['streaming', 'tools', 'reasoning'], ['text']),
  model('gw-latest', 'gateway-studio', ['streaming', 'tools'], ['text']),
  // Issue 22: served on /v1/responses only; reasoning in each other dialect; DeepSeek-style replay.
  model('gw-codex', 'gateway-studio', ['streaming', 'tools', 'reasoning'], ['text']),
  model('gw-think', 'gateway-studio', ['streaming', 'tools', 'reasoning'], ['text']),
  model('gw-reasoning', 'gateway-studio', ['streaming', 'tools', 'reasoning'], ['text']),
  model('gw-details', 'gateway-studio', ['streaming', 'tools', 'reasoning'], ['text']),
  model('gw-deepseek', 'gateway-studio', ['streaming', 'tools', 'reasoning'], ['text']),
];

/** Models chat completions refuses as OpenAI does a Codex model (404, "only supported in v1/responses"). */
export const RESPONSES_ONLY: ReadonlySet<string> = new Set(['gw-codex']);

/**
 * How each reasoning model sends its reasoning on chat completions: `<think>` tags in the content,
 * `reasoning` (vLLM, OpenRouter), `reasoning_details[]` (OpenRouter), else `reasoning_content`
 * (DeepSeek; gw-reasoner and gw-deepseek, which also refuse a tool turn sent back without it).
 */
export const REASONING_DIALECT: Readonly<Record<string, 'think-tags' | 'reasoning' | 'details' | 'reasoning_content'>> =
  {
    'gw-think': 'think-tags',
    'gw-reasoning': 'reasoning',
    'gw-details': 'details',
    'gw-deepseek': 'reasoning_content',
    'gw-codex': 'reasoning_content',
  };

/** The version `gw-latest` answers as (spec 2.2: "an internally aligned version"). */
export const ALIGNED: Readonly<Record<string, string>> = { 'gw-latest': 'gw-chat-2026-11' };

/** Whether a chat model accepts image parts. */
export function acceptsImages(id: string): boolean {
  return CHAT_MODELS.find((m) => m.id === id)?.capabilities.includes('image') ?? false;
}
