// `reasoning_details[]` (OpenRouter's structured form): the entries read alone, and a recorded
// OpenRouter stream through the real client (fixtures/reasoningDetails.sse and its snapshot).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { detailsText, reasoningDetails } from '../../../../../src/api/chat/reasoning/reasoningDetails';
import { matchSnapshot, replay } from '../../../../support/recordedStream';

const fixtures = join(__dirname, '..', 'fixtures');

void test('text and summary entries are reasoning; encrypted entries and signatures add nothing', () => {
  assert.equal(
    detailsText([
      { type: 'reasoning.text', text: 'a' },
      { type: 'reasoning.summary', summary: 'b' },
      { type: 'reasoning.encrypted', text: 'never shown' },
      { type: 'reasoning.text' },
    ]),
    'ab',
  );
  assert.equal(reasoningDetails.read({}), undefined);
  assert.equal(reasoningDetails.read({ reasoning_details: null }), undefined);
  assert.equal(reasoningDetails.read({ reasoning_details: [] }), '');
});

void test('a recorded OpenRouter stream: reasoning sent twice is kept once, summaries join, encrypted data is not shown', async () => {
  const r = await replay(join(fixtures, 'reasoningDetails.sse'));
  const reasoning = r.result.message.reasoning_content ?? '';
  assert.equal(reasoning, 'Check the units first. Then convert.');
  assert.ok(!reasoning.includes('gAAAA'));
  assert.equal(r.streamed.reasoning, reasoning);
  matchSnapshot({ result: r.result, streamed: r.streamed }, join(fixtures, 'reasoningDetails.json'));
});
