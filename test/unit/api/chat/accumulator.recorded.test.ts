// A recorded relay stream of plain chat completions through the real client
// (fixtures/chatToolCalls.sse and its snapshot): `event: message` lines, two parallel calls both
// at index 0 with distinct ids, the last fragment and usage on the finish chunk.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { matchSnapshot, replay } from '../../../support/recordedStream';

const fixtures = join(__dirname, 'fixtures');

void test('a recorded relay stream with parallel tool calls at index 0', async () => {
  const r = await replay(join(fixtures, 'chatToolCalls.sse'));
  assert.deepEqual(
    r.result.message.tool_calls?.map((c) => c.id),
    ['call_Ab12', 'call_Cd34'],
  );
  assert.equal(r.result.message.content, null, 'no text beside the calls');
  matchSnapshot({ result: r.result, streamed: r.streamed }, join(fixtures, 'chatToolCalls.json'));
});
