// The checkpoints model (webview/chat/models/checkpoints.ts): Restore buttons of the shown
// conversation only, and the restore panel's plan.
import '../../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCheckpointsModel } from '../../../../../webview/chat/models/checkpoints';
import { createConversationModel } from '../../../../../webview/chat/models/conversation';
import { createStringsModel } from '../../../../../webview/chat/models/strings';
import { conversation, DEFAULTS } from './fixtures';

const FILE = { path: '/ws/a.ts', relative: 'a.ts', status: 'changed', action: 'restore', diff: '-a\n+b' } as const;

void test('the list of another conversation is ignored; a plan opens and closes for its answer', () => {
  const conv = createConversationModel({ t: createStringsModel().t });
  conv.show(conversation('c1'), DEFAULTS, 'gw', '');
  const cp = createCheckpointsModel({ conversation: conv });
  cp.onHost({ type: 'checkpoints/list', conversationId: 'c2', answers: [{ answerId: 'a9', files: 1, unrecorded: 0 }] });
  assert.equal(cp.summaries.value.size, 0);
  cp.onHost({ type: 'checkpoints/list', conversationId: 'c1', answers: [{ answerId: 'a1', files: 2, unrecorded: 1 }] });
  assert.deepEqual(cp.summaries.value.get('a1'), { answerId: 'a1', files: 2, unrecorded: 1 });
  cp.onHost({ type: 'checkpoints/plan', answerId: 'a1', files: [FILE] });
  assert.deepEqual(cp.plan.value, { answerId: 'a1', files: [FILE] });
  cp.onHost({ type: 'checkpoints/plan', answerId: 'a2' });
  assert.equal(cp.plan.value?.answerId, 'a1', 'closing another answer’s plan keeps this one');
  cp.onHost({ type: 'checkpoints/plan', answerId: 'a1' });
  assert.equal(cp.plan.value, undefined);
  cp.reset();
  assert.equal(cp.summaries.value.size, 0);
});
