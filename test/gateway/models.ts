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
];

/** The version `gw-latest` answers as (spec 2.2: "an internally aligned version"). */
export const ALIGNED: Readonly<Record<string, string>> = { 'gw-latest': 'gw-chat-2026-11' };

/** Whether a chat model accepts image parts. */
export function acceptsImages(id: string): boolean {
  return CHAT_MODELS.find((m) => m.id === id)?.capabilities.includes('image') ?? false;
}
