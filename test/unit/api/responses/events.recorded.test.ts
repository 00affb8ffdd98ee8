// A recorded Responses stream through the real client (fixtures/stream.sse and its snapshot):
// a reasoning summary with its encrypted item, text, a function call, and usage on
// response.completed, read into the chat's own result.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { matchSnapshot, replay } from '../../../support/recordedStream';

const fixtures = join(__dirname, 'fixtures');

void test('a recorded Responses stream: summary, text, a function call, encrypted reasoning and usage', async () => {
  const r = await replay(join(fixtures, 'stream.sse'), 'responses');
  assert.equal(r.request.stream, true);
  assert.equal(r.result.message.tool_calls?.[0]?.id, 'call_Rk9x');
  assert.equal(
    r.result.message.encrypted_reasoning?.items[0]?.encrypted_content,
    'gAAAAABoRecordedEncryptedReasoning==',
  );
  matchSnapshot({ result: r.result, streamed: r.streamed }, join(fixtures, 'stream.json'));
});
