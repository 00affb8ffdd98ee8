// What the vscode.lm tests build requests from: two tools, a tool-calling script for the local
// gateway, and VS Code's part and turn shapes (the provider recognises parts by their fields).
import type { ChatRequest } from '../../src/api/chat/wire';
import { buildLmRequest } from '../../src/lm/messages/core/messages';
import { LM_ROLE, type LmMessageLike } from '../../src/lm/messages/core/parts';

export const READ_FILE = {
  name: 'read_file',
  description: 'Reads a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
};
export const LIST_DIR = {
  name: 'list_directory',
  description: 'Lists a folder',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
};
/** Makes the local gateway's model call list_directory. */
export const LIST_DIR_SCRIPT = '#tools [{"calls":[{"name":"list_directory","arguments":{"path":"src"}}]}]';

/** A text part as VS Code's `LanguageModelTextPart` is shaped. */
export class TextPart {
  constructor(readonly value: string) {}
}

/** A user turn as VS Code hands it to the provider. */
export function userTurn(text: string): LmMessageLike {
  return { role: LM_ROLE.user, content: [new TextPart(text)] };
}

/** The request the provider builds for toolMode Required (2) with both tools, so "required" goes out. */
export function requiredRequest(modelId: string, text = LIST_DIR_SCRIPT): ChatRequest {
  return buildLmRequest([userTurn(text)], {
    modelId,
    acceptsImages: modelId === 'gw-vision',
    tools: [READ_FILE, LIST_DIR],
    toolMode: 2,
  }).request;
}
