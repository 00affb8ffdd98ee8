// The queue of messages written while an answer runs: taken after a tool round or when the turn
// ends by itself, kept when the user stopped it, sent at once on an interrupt, kept per conversation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  joinQueued,
  MAX_QUEUED,
  MessageQueue,
  QueueRefusal,
  type QueuedMessage,
} from '../../../../../src/chat/queue/core/queue';

function queue() {
  const changes: [string, string[]][] = [];
  let n = 0;
  const q = new MessageQueue({
    now: () => 1000,
    newId: () => `q${++n}`,
    onChange: (c, items) => changes.push([c, items.map((i) => i.text)]),
  });
  return { q, changes };
}
const texts = (items: readonly QueuedMessage[]) => items.map((i) => i.text);

void test('queued during a tool round, taken after it; the rest goes when the turn ends by itself', () => {
  const { q, changes } = queue();
  q.turnStarted('A');
  q.add('A', 'also check the tests');
  assert.equal(q.state('A'), 'running');
  assert.deepEqual(texts(q.takeAfterRound('A')), ['also check the tests']);
  assert.deepEqual(q.takeAfterRound('A'), [], 'taken once');
  q.add('A', 'and then the docs');
  assert.deepEqual(texts(q.turnEnded('A', 'done')), ['and then the docs']);
  assert.equal(q.state('A'), 'idle');
  assert.deepEqual(changes, [
    ['A', ['also check the tests']],
    ['A', []],
    ['A', ['and then the docs']],
    ['A', []],
  ]);
});

void test('a stopped or failed turn keeps the queue for the user; Send now sends it', () => {
  const { q } = queue();
  for (const end of ['stopped', 'error', 'max-rounds'] as const) {
    q.turnStarted('A');
    q.add('A', `after ${end}`);
    assert.deepEqual(q.turnEnded('A', end), []);
    assert.deepEqual(texts(q.items('A')), [`after ${end}`]);
    assert.deepEqual(texts(q.sendNow('A', false)), [`after ${end}`]);
    assert.deepEqual(q.items('A'), []);
  }
  assert.deepEqual(q.takeAfterRound('A'), [], 'nothing runs: nothing is taken between rounds');
});

void test('an interrupt stops the turn and sends the whole queue when it has ended', () => {
  const { q } = queue();
  q.turnStarted('A');
  q.add('A', 'stop, wrong file');
  assert.deepEqual(q.sendNow('A', true), [], 'sent once the running turn has ended');
  assert.equal(q.state('A'), 'interrupting');
  assert.deepEqual(q.takeAfterRound('A'), [], 'not slipped into a turn that is being stopped');
  assert.deepEqual(texts(q.turnEnded('A', 'stopped')), ['stop, wrong file']);
  assert.deepEqual(q.sendNow('A', true), [], 'an empty queue sends nothing');
});

void test('each conversation keeps its own queue across a switch', () => {
  const { q } = queue();
  q.turnStarted('A');
  q.add('A', 'for A');
  // The user opens B: A's turn is stopped, its queue stays with A.
  assert.deepEqual(q.turnEnded('A', 'stopped'), []);
  q.add('B', 'for B');
  assert.deepEqual(texts(q.items('A')), ['for A']);
  assert.deepEqual(texts(q.items('B')), ['for B']);
  assert.deepEqual(q.conversations().sort(), ['A', 'B']);
  assert.deepEqual(q.turnEnded('C', 'done'), [], 'a conversation with no queue');
});

void test('edit and remove; an edit of a message already sent says so; bad input is refused', () => {
  const { q } = queue();
  const a = q.add('A', 'first');
  const b = q.add('A', 'second');
  assert.equal(q.edit('A', a.id, 'first, edited'), true);
  q.remove('A', b.id);
  q.remove('A', 'unknown');
  assert.deepEqual(texts(q.items('A')), ['first, edited']);
  q.sendNow('A', false);
  assert.equal(q.edit('A', a.id, 'too late'), false);
  assert.throws(() => q.add('A', '  \n'), QueueRefusal);
  assert.throws(() => q.add('A', 'x'.repeat(100_001)), /100001 characters/);
  assert.throws(() => q.edit('A', a.id, ''), /empty/);
  for (let i = 0; i < MAX_QUEUED; i++) q.add('A', `m${i}`);
  assert.throws(() => q.add('A', 'one more'), /20 messages are queued already/);
});

void test('restored items come back capped; several are joined in order', () => {
  const { q } = queue();
  const many = Array.from({ length: 25 }, (_, i) => ({ id: `r${i}`, text: `t${i}`, createdAt: i }));
  q.restore('A', many);
  assert.equal(q.items('A').length, MAX_QUEUED);
  assert.equal(joinQueued(q.items('A').slice(0, 2)), 't0\n\nt1');
});

void test('a conversation no longer shown keeps its queue, even on an interrupt; put back goes first', () => {
  const { q } = queue();
  q.turnStarted('A');
  q.add('A', 'second');
  q.sendNow('A', true);
  assert.deepEqual(q.turnEnded('A', 'stopped', false), []);
  assert.equal(q.state('A'), 'idle');
  q.putBack('A', 'first');
  assert.deepEqual(texts(q.items('A')), ['first', 'second']);
});
