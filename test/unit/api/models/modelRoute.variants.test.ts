import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readModelCalls } from '../../../../src/api/models/modelCall';
import { ModelRouter } from '../../../../src/api/models/modelRoute';

void test('variants are listed after their model as copies of its record, with the effort where one is set', async () => {
  const calls = readModelCalls({
    'gpt-5': {
      reasoningEffort: 'medium',
      variants: { thinking: { reasoningEffort: 'high' }, fast: { reasoningEffort: 'minimal' } },
    },
  });
  const r = new ModelRouter({ settingsFor: (m) => calls.byId[m], variantsOf: (m) => calls.variants[m] });
  const list = await r.withVariants([
    { id: 'gpt-5', context_length: 400_000 },
    { id: 'other', context_length: 1 },
  ]);
  assert.deepEqual(list, [
    { id: 'gpt-5', context_length: 400_000, reasoning_effort: 'medium' },
    { id: 'gpt-5#thinking', context_length: 400_000, reasoning_effort: 'high' },
    { id: 'gpt-5#fast', context_length: 400_000, reasoning_effort: 'minimal' },
    { id: 'other', context_length: 1 },
  ]);
  assert.equal(await r.wireModel('gpt-5#fast'), 'gpt-5');
  assert.equal(await r.wireModel('other'), 'other');
  const body = r.chatBody({ model: 'gpt-5#thinking', messages: [] }, await r.settings('gpt-5#thinking'));
  assert.deepEqual(body, { model: 'gpt-5', messages: [], reasoning_effort: 'high' });
});
