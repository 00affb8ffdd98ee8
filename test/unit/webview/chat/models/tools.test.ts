// The tools model (webview/chat/models/tools.ts): the list the panel shows, and where the cards of
// calls go: under the answer that names them, loose under the last answer, or at the log's end.
import '../../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatMessage, ToolCallUpdate } from '../../../../../src/shared/protocol';
import { CARD_ROW, createConversationModel } from '../../../../../webview/chat/models/conversation';
import { createStringsModel } from '../../../../../webview/chat/models/strings';
import { createToolsModel } from '../../../../../webview/chat/models/tools';
import { liveRegion } from '../../nodePage';
import { answer, conversation, DEFAULTS, task, toolResult, user } from './fixtures';

const call = (callId: string, state: ToolCallUpdate['state'] = 'running'): ToolCallUpdate => ({
  callId,
  name: 'read_file',
  argumentsJson: '{"path":"a.ts"}',
  state,
  readOnly: true,
});
const named = (id: string, ...calls: string[]) =>
  answer(id, {
    toolCalls: calls.map((c) => ({ id: c, type: 'function', function: { name: 'read_file', arguments: '{}' } })),
  });

function setUp(messages: ChatMessage[] = [user('u1')]) {
  const { t } = createStringsModel();
  const conv = createConversationModel({ t });
  conv.show(conversation('c1', messages), DEFAULTS, 'gw', '');
  const tools = createToolsModel({ conversation: conv, t });
  tools.showConversation(messages, false);
  return { conv, tools };
}

void test('the host’s list sets the tools, the choice, and starts the panel over', () => {
  const { tools } = setUp();
  tools.onHost({
    type: 'tools/list',
    tools: [{ name: 'read_file', description: 'Reads a file', readOnly: true, enabled: true, trusted: true }],
    choice: 'none',
  });
  assert.deepEqual(
    tools.list.value.map((x) => x.name),
    ['read_file'],
  );
  assert.equal(tools.choice.value, 'none');
  assert.equal(tools.version.value, 1);
});

void test('a card for a call no message names goes at the end of the log, and under its answer once it comes', () => {
  const { conv, tools } = setUp();
  tools.onHost({ type: 'tools/call', update: call('call_1') });
  assert.deepEqual(conv.rows.value, ['u1', `${CARD_ROW}call_1`]);
  assert.deepEqual(tools.looseCards.value, [{ callId: 'call_1', owner: undefined }]);
  assert.equal(tools.update('call_1').value?.state, 'running');
  tools.onHost({ type: 'tools/call', update: call('call_1', 'done') });
  assert.equal(tools.looseCards.value.length, 1, 'one card per call');
  const a1 = named('a1', 'call_1');
  conv.upsert(a1);
  tools.messageShown(a1);
  assert.deepEqual(tools.looseCards.value, []);
  assert.deepEqual(conv.rows.value, ['u1', 'a1']);
  assert.equal(tools.update('call_1').value?.state, 'done');
});

void test('a loose card goes under the last answer when there is one; a named call gets no loose card', () => {
  const { conv, tools } = setUp([user('u1'), named('a1', 'call_1')]);
  tools.onHost({ type: 'tools/call', update: call('call_1') });
  assert.deepEqual(tools.looseCards.value, []);
  tools.onHost({ type: 'tools/call', update: call('call_2') });
  assert.deepEqual(tools.looseCards.value, [{ callId: 'call_2', owner: 'a1' }]);
  assert.deepEqual(conv.rows.value, ['u1', 'a1']);
});

void test('results come from the conversation and from new tool messages; another conversation forgets cards', () => {
  const shown = [user('u1'), named('a1', 'call_1'), toolResult('t1', 'call_1', 'export const A = 1;')];
  const { tools } = setUp(shown);
  assert.equal(tools.result('call_1').value?.content, 'export const A = 1;');
  tools.messageShown(toolResult('t2', 'call_2', 'two'));
  assert.equal(tools.result('call_2').value?.content, 'two');
  tools.onHost({ type: 'tools/call', update: call('call_1', 'done') });
  tools.onHost({ type: 'tools/mediaJob', callId: 'call_1', task: task({ key: 'k1' }) });
  assert.equal(tools.videoTask('call_1').value?.key, 'k1');

  tools.showConversation(shown, true);
  assert.equal(tools.update('call_1').value?.state, 'done', 'the same conversation keeps its calls’ states');
  tools.showConversation([user('u1')], true);
  assert.equal(tools.update('call_1').value, undefined, 'a call it no longer has loses its state');
  tools.onHost({ type: 'tools/call', update: call('call_1', 'done') });
  tools.showConversation([], false);
  assert.equal(tools.update('call_1').value, undefined);
  assert.equal(tools.videoTask('call_1').value, undefined);
  assert.equal(tools.result('call_2').value, undefined);
});

void test('a call waiting for approval is read out', () => {
  const region = liveRegion();
  const { tools } = setUp();
  tools.onHost({ type: 'tools/call', update: call('call_1', 'awaiting-approval') });
  assert.equal(region.text(), 'Tool call: read_file: Waiting for your approval');
});
