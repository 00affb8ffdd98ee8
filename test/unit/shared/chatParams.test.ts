// The chat parameters when the user set none (src/shared/chatParams.ts): what the settings fall
// back to, so a fresh profile sends only the stream flag.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { settingsFrom } from '../../../src/platform/settingValues';
import { DEFAULT_CHAT_PARAMS } from '../../../src/shared/chatParams';

void test('unset chat settings read as the default parameters, which set nothing but streaming', () => {
  const s = settingsFrom(
    () => undefined,
    () => undefined,
  ).chat;
  assert.deepEqual(
    {
      temperature: s.temperature,
      top_p: s.topP,
      max_tokens: s.maxTokens,
      stop: s.stop,
      presence_penalty: s.presencePenalty,
      frequency_penalty: s.frequencyPenalty,
      response_format: s.responseFormat,
      user: s.user,
      stream: s.stream,
    },
    DEFAULT_CHAT_PARAMS,
  );
  assert.equal(DEFAULT_CHAT_PARAMS.stream, true);
  assert.equal(DEFAULT_CHAT_PARAMS.temperature, null);
  assert.ok(Object.isFrozen(DEFAULT_CHAT_PARAMS), 'a test or caller cannot change the defaults for everyone');
});
