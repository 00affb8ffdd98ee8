import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  contextHostMessages,
  contextWebviewMessages,
  toolModeSchema,
  type ContextMeter,
} from '../../../../src/shared/protocol/context';
import { accepts, acceptsEvery, refusal, union } from '../../../support/protocolCheck';

const host = union(contextHostMessages);
const webview = union(contextWebviewMessages);
const meter: ContextMeter = {
  model: 'gw-chat',
  window: 8192,
  source: 'model',
  field: 'context_length',
  system: 900,
  tools: 1200,
  history: 3000,
  attachments: 0,
  reserve: 1024,
  charsPerToken: 3.6,
  lastPromptTokens: 5000,
  toolMode: 'all',
  fixedTooLarge: false,
};
const compaction = { summary: 'We fixed the parser.', throughId: 'a7', messageCount: 14, createdAt: 1 };

void test('every context message is accepted in its valid shape', () => {
  acceptsEvery(host, [
    { type: 'context/meter', meter },
    { type: 'context/compacted', conversationId: 'c1', compaction },
    // Compaction undone (the summary dropped): no compaction.
    { type: 'context/compacted', conversationId: 'c1' },
  ]);
  acceptsEvery(webview, [{ type: 'context/compact' }, { type: 'context/toolMode', mode: 'readOnly' }]);
});

void test('the tool mode is all, readOnly or none and nothing else', () => {
  for (const mode of ['all', 'readOnly', 'none']) accepts(toolModeSchema, mode);
  assert.match(
    refusal(webview, { type: 'context/toolMode', mode: 'some' }),
    /^mode: Invalid option: expected one of "all"\|"readOnly"\|"none"/,
  );
  assert.match(refusal(webview, { type: 'context/toolMode' }), /^mode: Invalid option/);
});

void test("a meter without its window, with an unknown source, or a compaction's count not whole, is refused", () => {
  const { window: _w, ...noWindow } = meter;
  assert.equal(
    refusal(host, { type: 'context/meter', meter: noWindow }),
    'meter.window: Invalid input: expected number, received undefined',
  );
  assert.match(
    refusal(host, { type: 'context/meter', meter: { ...meter, source: 'guess' } }),
    /^meter\.source: Invalid option/,
  );
  assert.match(
    refusal(host, { type: 'context/meter', meter: { ...meter, toolMode: 'off' } }),
    /^meter\.toolMode: Invalid option/,
  );
  assert.match(
    refusal(host, {
      type: 'context/compacted',
      conversationId: 'c1',
      compaction: { ...compaction, messageCount: 1.5 },
    }),
    /^compaction\.messageCount: Invalid input: expected int/,
  );
  assert.match(
    refusal(host, { type: 'context/compacted', conversationId: '', compaction }),
    /^conversationId: Too small/,
  );
});
