import type { ChatParams } from './protocol';

/**
 * The chat parameters when the user set none (package.json's defaults of `gatewayStudio.chat.*`):
 * nothing sent but the stream flag, so the gateway's own defaults apply. The settings fall back to
 * these, and the tests start from them.
 */
export const DEFAULT_CHAT_PARAMS: Readonly<ChatParams> = Object.freeze({
  temperature: null,
  top_p: null,
  max_tokens: null,
  stop: [],
  presence_penalty: null,
  frequency_penalty: null,
  response_format: 'text',
  user: '',
  stream: true,
});
