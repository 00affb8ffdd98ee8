// The parts of VS Code's language-model messages, recognised without `vscode`. The parts arrive as
// instances of the extension host's classes; they are recognised by shape rather than
// `instanceof` so that this runs (and is tested) in plain node, and so that parts newer than
// @types/vscode 1.104 (data, thinking) are handled too.

/** `LanguageModelChatMessageRole`: 1 user, 2 assistant, 3 system (System is newer than 1.104's types). */
export const LM_ROLE = { user: 1, assistant: 2, system: 3 } as const;

/** The shape of `LanguageModelChatRequestMessage`. */
export interface LmMessageLike {
  readonly role: number;
  readonly content: ReadonlyArray<unknown>;
  readonly name?: string | undefined;
}

/** The shape of `LanguageModelChatTool`. */
export interface LmToolLike {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: object | undefined;
}

/** One part of a message, recognised by its fields. */
export type LmPart =
  | { kind: 'text'; text: string }
  | { kind: 'toolCall'; callId: string; name: string; input: unknown }
  | { kind: 'toolResult'; callId: string; content: ReadonlyArray<unknown> }
  | { kind: 'data'; mimeType: string; data: Uint8Array }
  | { kind: 'thinking'; text: string }
  | { kind: 'unknown'; what: string };

export function rec(p: unknown): Record<string, unknown> | undefined {
  return typeof p === 'object' && p !== null ? (p as Record<string, unknown>) : undefined;
}

/**
 * Classifies a part by the fields the extension host's classes set in their constructors:
 * tool call `{ callId, name, input }`, tool result `{ callId, content[] }`, data
 * `{ mimeType, data: Uint8Array }`, thinking `{ value, id, metadata }`, text `{ value: string }`.
 * A bare string counts as text (the host's own converters accept it too).
 */
export function classifyPart(p: unknown): LmPart {
  if (typeof p === 'string') return { kind: 'text', text: p };
  const r = rec(p);
  if (!r) return { kind: 'unknown', what: String(p) };
  if (typeof r.callId === 'string' && typeof r.name === 'string' && 'input' in r) {
    return { kind: 'toolCall', callId: r.callId, name: r.name, input: r.input };
  }
  if (typeof r.callId === 'string' && Array.isArray(r.content))
    return { kind: 'toolResult', callId: r.callId, content: r.content };
  if (typeof r.mimeType === 'string' && r.data instanceof Uint8Array)
    return { kind: 'data', mimeType: r.mimeType, data: r.data };
  if ('id' in r && 'metadata' in r && (typeof r.value === 'string' || Array.isArray(r.value))) {
    return {
      kind: 'thinking',
      text: Array.isArray(r.value) ? r.value.filter((v) => typeof v === 'string').join('') : (r.value as string),
    };
  }
  if (typeof r.value === 'string') return { kind: 'text', text: r.value };
  const ctor = (p as { constructor?: { name?: unknown } }).constructor?.name;
  return {
    kind: 'unknown',
    what: typeof ctor === 'string' && ctor !== 'Object' ? ctor : JSON.stringify(p).slice(0, 60),
  };
}

/** MIME types whose bytes are text a model can read as such. */
export function isTextMime(mime: string): boolean {
  const m = mime.toLowerCase();
  return m.startsWith('text/') || m === 'application/json' || m.endsWith('+json') || m.endsWith('/x-json');
}

export function isImageMime(mime: string): boolean {
  return /^image\/[a-z0-9.+-]+$/i.test(mime);
}

/** A complete `data:` URL, the form spec 2.1 accepts for image parts. */
export function imageDataUrl(mimeType: string, data: Uint8Array): string {
  return `data:${mimeType.toLowerCase()};base64,${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64')}`;
}

export function utf8(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8');
}

/**
 * Text of a prompt-tsx element (`LanguageModelPromptTsxPart.value`): without the library the tree
 * cannot be rendered, but its text nodes carry what the tool said.
 */
export function promptTsxText(v: unknown, depth = 0): string {
  if (depth > 50) return '';
  if (typeof v === 'string') return '';
  if (Array.isArray(v)) return v.map((x) => promptTsxText(x, depth + 1)).join('');
  const r = rec(v);
  if (!r) return '';
  let out = typeof r.text === 'string' ? r.text : '';
  for (const [k, x] of Object.entries(r)) if (k !== 'text' && typeof x === 'object') out += promptTsxText(x, depth + 1);
  return out;
}

export function describePart(p: LmPart): string {
  return p.kind === 'data' ? `data part of type ${p.mimeType}` : p.kind === 'unknown' ? p.what : `${p.kind} part`;
}
