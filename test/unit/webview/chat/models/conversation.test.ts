// The conversation model (webview/chat/models/conversation.ts): what a shown conversation puts in
// the log, where the per-message buttons go, and the requests it posts.
import '../../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createConversationModel, ERROR_ROW } from '../../../../../webview/chat/models/conversation';
import { createStringsModel } from '../../../../../webview/chat/models/strings';
import { liveRegion, recordPosts } from '../../nodePage';
import { answer, conversation, DEFAULTS, USD, user } from './fixtures';

const model = () => createConversationModel({ t: createStringsModel().t });

void test('a shown conversation sets the rows, the model in effect and the buttons’ places', () => {
  const c = model();
  const previous = c.show(
    conversation('c1', [
      user('u1'),
      answer('a1', { usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }),
      user('u2'),
    ]),
    DEFAULTS,
    'gw-default',
    '',
  );
  assert.equal(previous, undefined);
  assert.equal(c.id.value, 'c1');
  assert.deepEqual(c.rows.value, ['u1', 'a1', 'u2']);
  assert.equal(c.currentModel.value, 'gw-default', 'no model of its own: the default');
  assert.equal(c.lastUserId.value, 'u2');
  assert.equal(c.lastAssistantId.value, undefined, 'the answer is to an earlier question');
  assert.equal(c.unanswered.value, true);
  assert.equal(c.totalTokens.value, 3);
  assert.equal(c.version.value, 1);

  assert.equal(c.show(conversation('c2', [user('x')], { model: 'gw-other' }), DEFAULTS, 'gw-default', ''), 'c1');
  assert.deepEqual(c.rows.value, ['x']);
  assert.equal(c.messages.has('u1'), false, 'another conversation drops the last one’s messages');
  assert.equal(c.currentModel.value, 'gw-other');
});

void test('upsert adds a row once, keeps a cost that came first, and setCost reaches only this conversation', () => {
  const c = model();
  assert.equal(c.upsert(user('u1')), false, 'no conversation shown: nothing taken');
  c.show(conversation('c1', [user('u1')]), DEFAULTS, 'gw', '');
  const cost = { quota: 1000, unit: USD, estimate: false };
  assert.equal(c.upsert(answer('a1', { status: 'streaming' })), true);
  c.setCost('c1', 'a1', cost);
  c.setCost('other', 'a1', { ...cost, quota: 5 });
  assert.equal(c.upsert(answer('a1')), true);
  assert.deepEqual(c.rows.value, ['u1', 'a1']);
  const a1 = c.messages.get('a1')?.value;
  assert.equal(a1?.role === 'assistant' && a1.cost?.quota, 1000, 'the late final copy keeps the cost');
  assert.deepEqual(c.answerCosts.value, [cost]);
  assert.equal(c.lastAssistantId.value, 'a1');
  assert.equal(c.unanswered.value, false);
});

void test('a request is posted and makes the page busy; another waits for its end; stop cancels it', () => {
  const posted = recordPosts();
  const c = model();
  c.show(conversation('c1'), DEFAULTS, 'gw', '');
  c.request({ type: 'chat/regenerate', requestId: 'r1' });
  c.request({ type: 'chat/retry', requestId: 'r2' });
  assert.deepEqual(posted, [{ type: 'chat/regenerate', requestId: 'r1' }]);
  assert.equal(c.busy.value, true);
  assert.equal(c.lastRequest(), 'r1');
  c.stop();
  assert.deepEqual(posted.at(-1), { type: 'chat/cancel', requestId: 'r1' });
  c.ended('other');
  assert.equal(c.busy.value, true, 'the end of another request changes nothing');
  c.ended('r1');
  assert.equal(c.busy.value, false);
  c.stop();
  assert.equal(posted.length, 2, 'nothing to stop');
  c.continueAnswer();
  assert.equal(posted.at(-1)?.type, 'chat/continue');
});

void test('the model box stores the default as none and tells the host', () => {
  const posted = recordPosts();
  const c = model();
  c.show(conversation('c1', [], { model: 'gw-x' }), DEFAULTS, 'gw-default', '');
  c.setModel('gw-default');
  assert.equal(c.meta.value?.model, '');
  assert.equal(c.currentModel.value, 'gw-default');
  c.setModel('gw-y');
  assert.equal(c.currentModel.value, 'gw-y');
  assert.deepEqual(posted, [
    { type: 'chat/setModel', model: 'gw-default' },
    { type: 'chat/setModel', model: 'gw-y' },
  ]);
});

void test('an error without a message is one row at the end, and showing the conversation again clears it', () => {
  const c = model();
  c.show(conversation('c1', [user('u1')]), DEFAULTS, 'gw', '');
  const error = { title: 'Gateway unreachable', detail: 'ECONNREFUSED', actions: [] };
  c.showStandaloneError(error, 'r1');
  c.showStandaloneError(error, 'r2');
  assert.deepEqual(c.rows.value, ['u1', ERROR_ROW]);
  assert.equal(c.standaloneError.value?.requestId, 'r2');
  c.show(conversation('c1', [user('u1')]), DEFAULTS, 'gw', '');
  assert.equal(c.standaloneError.value, undefined);
  assert.deepEqual(c.rows.value, ['u1']);
});

void test('json mode follows the conversation’s response format, else the defaults', () => {
  const c = model();
  c.show(conversation('c1', [], { params: { response_format: 'json_object' } }), DEFAULTS, 'gw', '');
  assert.equal(c.jsonMode.value, true);
  c.show(conversation('c1'), { ...DEFAULTS, response_format: 'text' }, 'gw', '');
  assert.equal(c.jsonMode.value, false);
});

void test('the end of an answer is read out: stopped, or finished when it is not in the DOM', () => {
  const region = liveRegion();
  const c = model();
  c.announceAnswer(answer('a1', { status: 'stopped' }));
  assert.equal(region.text(), 'Answer stopped.');
  c.announceAnswer(answer('a2'));
  assert.equal(region.text(), 'Answer finished.');
});

void test('the costs of the answers come with the agent that gave each (Agent for answers from before agents)', () => {
  const c = model();
  const priced = (quota: number) => ({ quota, unit: USD, estimate: false });
  c.show(
    conversation('c1', [
      user('u1'),
      answer('a1', { agent: 'plan', cost: priced(1) }),
      user('u2'),
      answer('a2', { cost: priced(2) }),
      answer('a3', { agent: 'plan' }),
    ]),
    DEFAULTS,
    'gw-default',
    '',
  );
  assert.deepEqual(c.costAgents.value, ['plan', 'agent']);
  assert.equal(c.answerCosts.value.length, 2);
});
