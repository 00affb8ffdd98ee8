// The context model (webview/chat/models/context.ts): the meter, and the summary of the shown conversation only.
import '../../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createContextModel } from '../../../../../webview/chat/models/context';
import { createConversationModel } from '../../../../../webview/chat/models/conversation';
import { createStringsModel } from '../../../../../webview/chat/models/strings';
import { conversation, DEFAULTS } from './fixtures';

void test('the meter is the host’s last; a compaction counts only for the shown conversation', () => {
  const conv = createConversationModel({ t: createStringsModel().t });
  conv.show(conversation('c1'), DEFAULTS, 'gw', '');
  const ctx = createContextModel({ conversation: conv });
  const meter = {
    model: 'gw',
    window: 8000,
    source: 'model',
    system: 10,
    tools: 20,
    history: 30,
    attachments: 0,
    reserve: 1000,
    charsPerToken: 4,
    toolMode: 'all',
    fixedTooLarge: false,
  } as const;
  ctx.onHost({ type: 'context/meter', meter });
  assert.deepEqual(ctx.meter.value, meter);
  const compaction = { summary: 'earlier: greetings', throughId: 'u1', messageCount: 2, createdAt: 5 };
  ctx.onHost({ type: 'context/compacted', conversationId: 'c2', compaction });
  assert.equal(ctx.compaction.value, undefined);
  ctx.onHost({ type: 'context/compacted', conversationId: 'c1', compaction });
  assert.deepEqual(ctx.compaction.value, compaction);
});
