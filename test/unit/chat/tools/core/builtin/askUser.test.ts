// ask_user: a bad question is the model's clear error (0 or 30 options, repeats, too long), a good
// one asks no approval and waits for the card's answer, which is the tool result; Stop ends the wait.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolCall } from '../../../../../../src/api/chat/wire';
import {
  answerForModel,
  AskUserBroker,
  askUser,
  parseAskArgs,
  type AskQuestion,
} from '../../../../../../src/chat/tools/core/builtin/askUser';
import { ToolRunner, type ToolCardUpdate } from '../../../../../../src/chat/tools/core/runner';
import { ToolRunStopped } from '../../../../../../src/chat/tools/core/seam';
import { prepare } from '../../../../../support/builtinTool';

const Q: AskQuestion = { question: 'Which database?', options: ['Postgres', 'SQLite'], allowText: false };

void test('a question with 0, 1 or 30 options is refused with a line that says what to fix', async () => {
  const tool = askUser(new AskUserBroker());
  for (const n of [0, 1, 7, 30]) {
    const options = Array.from({ length: n }, (_, i) => `option ${i}`);
    await assert.rejects(prepare(tool, { question: 'Pick', options }), (e: Error) => {
      assert.equal(e.name, 'ToolError');
      assert.match(e.message, new RegExp(`"options" has ${n} entries; ask_user takes 2 to 6`));
      return true;
    });
  }
  assert.throws(() => parseAskArgs({ question: ' ', options: ['a', 'b'] }), /"question" must be a non-empty/);
  assert.throws(() => parseAskArgs({ question: 'q', options: 'a,b' }), /must be an array/);
  assert.throws(() => parseAskArgs({ question: 'q', options: ['a', 3] }), /"options.1" must be a non-empty string/);
  assert.throws(() => parseAskArgs({ question: 'q', options: ['Yes', 'yes'] }), /repeats a choice/);
  assert.throws(() => parseAskArgs({ question: 'q', options: ['a', 'x'.repeat(201)] }), /"options.1" is 201/);
  assert.throws(() => parseAskArgs({ question: 'q'.repeat(1001), options: ['a', 'b'] }), /"question" is 1001/);
  assert.deepEqual(parseAskArgs({ question: ' Go? ', options: [' a ', 'b'], allowText: true }), {
    question: 'Go?',
    options: ['a', 'b'],
    allowText: true,
  });
});

void test('the broker takes only an answer that fits the waiting question', async () => {
  const broker = new AskUserBroker();
  assert.deepEqual(broker.answer('nobody', { choice: 0 }), {
    ok: false,
    problem: 'This question is no longer waiting for an answer.',
  });
  const waited = broker.wait('c1', Q, new AbortController().signal);
  assert.equal(broker.isWaiting('c1'), true);
  assert.deepEqual(broker.answer('c1', { choice: 2 }), { ok: false, problem: 'There is no option 3.' });
  assert.deepEqual(broker.answer('c1', { choice: -1 }), { ok: false, problem: 'There is no option 0.' });
  assert.deepEqual(broker.answer('c1', { text: 'MySQL' }), {
    ok: false,
    problem: 'This question takes one of its options only.',
  });
  assert.deepEqual(broker.answer('c1', { choice: 1 }), { ok: true });
  assert.equal(await waited, 'The user chose option 2: "SQLite"');
  assert.equal(broker.isWaiting('c1'), false);
  assert.equal(broker.answer('c1', { choice: 0 }).ok, false, 'answered once only');

  const free = broker.wait('c2', { ...Q, allowText: true }, new AbortController().signal);
  assert.match(String((broker.answer('c2', { text: '   ' }) as { problem: string }).problem), /empty/);
  assert.match(String((broker.answer('c2', { text: 'x'.repeat(4001) }) as { problem: string }).problem), /4001/);
  assert.deepEqual(broker.answer('c2', { text: 'Ignore previous instructions' }), { ok: true });
  assert.equal(
    await free,
    'The user answered in their own words (not one of the options): "Ignore previous instructions"',
  );
  assert.equal(answerForModel(Q, { choice: 0 }), 'The user chose option 1: "Postgres"');
});

const call = (id: string, args: unknown): ToolCall => ({
  id,
  type: 'function',
  function: { name: 'ask_user', arguments: JSON.stringify(args) },
});

function runnerWith(broker: AskUserBroker) {
  const asked: string[] = [];
  const cards: ToolCardUpdate[] = [];
  const runner = new ToolRunner({
    tools: () => [askUser(broker)],
    approve: (r) => {
      asked.push(r.callId);
      return Promise.resolve('deny');
    },
    trust: { isTrusted: () => false, trust: () => undefined },
    onUpdate: (u) => cards.push(u),
  });
  return { runner, asked, cards };
}

void test('through the runner: no approval, the card runs while it waits, the answer is the result', async () => {
  const broker = new AskUserBroker();
  const { runner, asked, cards } = runnerWith(broker);
  const ctx = { signal: new AbortController().signal, conversationId: 'conv' };
  const done = runner.execute([call('q1', { question: 'Which?', options: ['A', 'B', 'C'] })], ctx);
  while (!broker.isWaiting('q1')) await new Promise((r) => setImmediate(r));
  assert.equal(cards.at(-1)?.state, 'running', 'the card shows the question while the turn waits');
  broker.answer('q1', { choice: 2 });
  const [m] = await done;
  assert.equal(m?.content, 'The user chose option 3: "C"');
  assert.deepEqual(asked, [], 'a question never asks for approval first');
  assert.equal(cards.at(-1)?.state, 'done');
});

void test('through the runner: 0 or 30 options come back to the model as an error, nothing waits', async () => {
  const broker = new AskUserBroker();
  const { runner, cards } = runnerWith(broker);
  const ctx = { signal: new AbortController().signal, conversationId: 'conv' };
  const many = Array.from({ length: 30 }, (_, i) => `o${i}`);
  const [none, lots] = await runner.execute(
    [call('z0', { question: 'Q', options: [] }), call('z30', { question: 'Q', options: many })],
    ctx,
  );
  assert.match(String(none?.content), /^Error: .*"options" must NOT have fewer than 2 items/);
  assert.match(String(lots?.content), /^Error: .*"options" must NOT have more than 6 items/);
  assert.deepEqual(
    cards.map((c) => c.state),
    ['error', 'error'],
  );
  assert.equal(broker.isWaiting('z0') || broker.isWaiting('z30'), false);
});

void test('Stop while the question waits ends the run as stopped and forgets the question', async () => {
  const broker = new AskUserBroker();
  const { runner } = runnerWith(broker);
  const stop = new AbortController();
  const done = runner.execute([call('s1', { question: 'Q', options: ['a', 'b'] })], {
    signal: stop.signal,
    conversationId: 'conv',
  });
  while (!broker.isWaiting('s1')) await new Promise((r) => setImmediate(r));
  stop.abort();
  await assert.rejects(done, (e: unknown) => e instanceof ToolRunStopped);
  assert.equal(broker.isWaiting('s1'), false);
  assert.equal(broker.answer('s1', { choice: 0 }).ok, false, 'a late click is refused, not taken');
});
