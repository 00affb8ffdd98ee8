// Messages queued while a tool round ran: they follow the round's results as the next user message,
// against the local gateway (which checks every tool call is answered before a user message), and
// they pass the UserPromptSubmit hooks like any message (a blocked one is kept in the queue).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import { MessageQueue, joinQueued } from '../../../../../src/chat/queue/core/queue';
import { queuedAfterRound } from '../../../../../src/chat/session/core/queuedTurn';
import type { SessionHooks, SessionQueue } from '../../../../../src/chat/session/core/sessionDeps';
import { runTurn } from '../../../../../src/chat/session/core/turnRunner';
import { AskUserBroker, askUser } from '../../../../../src/chat/tools/core/builtin/askUser';
import { ToolRunner } from '../../../../../src/chat/tools/core/runner';
import type { AssistantMessage, UserMessage } from '../../../../../src/shared/protocol';
import { UNSET_PARAMS, useGateway, userConversation } from '../../../../support/helpers';

const gw = useGateway();

/** The session's side of the queue over the core state machine, as chatQueue.ts wires it. */
function sessionQueue(q: MessageQueue): SessionQueue {
  return {
    started: (c) => q.turnStarted(c),
    afterRound: (c) => {
      const taken = q.takeAfterRound(c);
      return taken.length ? joinQueued(taken) : undefined;
    },
    putBack: (c, text) => q.putBack(c, text),
    ended: (c, end) => void q.turnEnded(c, end),
  };
}

const hooks = (blocked?: string): SessionHooks =>
  ({
    promptSubmitted: () => Promise.resolve(blocked ? { blocked } : { context: 'hook says hi' }),
  }) as unknown as SessionHooks;

void test('a message typed while ask_user waits is sent after the answer, as the next user message', async () => {
  gw.resetCounts();
  const broker = new AskUserBroker();
  const runner = new ToolRunner({
    tools: () => [askUser(broker)],
    approve: () => Promise.resolve('deny'),
    trust: { isTrusted: () => false, trust: () => undefined },
  });
  const script = [{ calls: [{ name: 'ask_user', arguments: { question: 'Which?', options: ['A', 'B'] } }] }];
  const c = userConversation(`#tools ${JSON.stringify(script)}`);
  const q = new MessageQueue();
  const queue = sessionQueue(q);
  const signal = new AbortController().signal;
  queue.started(c.id);
  const done = runTurn({
    backend: new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 }),
    conversation: c,
    defaults: { model: 'gw-chat', systemPrompt: '', params: UNSET_PARAMS },
    executor: runner,
    maxRounds: 5,
    signal,
    callbacks: { onMessage: () => undefined, onDelta: () => undefined },
    betweenRounds: () => queuedAfterRound({ queue, hooks: hooks() }, c, signal, () => undefined, 7),
  });
  const callId = await new Promise<string>((resolve) => {
    const look = () => {
      const id = (c.messages.at(-1) as AssistantMessage | undefined)?.toolCalls?.[0]?.id;
      if (id && broker.isWaiting(id)) resolve(id);
      else setTimeout(look, 5);
    };
    look();
  });
  q.add(c.id, '#say queued text arrived');
  broker.answer(callId, { choice: 1 });
  const out = await done;
  assert.equal(out.status, 'done');
  assert.deepEqual(
    c.messages.map((m) => m.role),
    ['user', 'assistant', 'tool', 'user', 'assistant'],
  );
  const queued = c.messages[3] as UserMessage;
  assert.equal(queued.text, '#say queued text arrived');
  assert.equal(queued.attachments?.[0]?.text, 'hook says hi', "the hooks' context goes with it");
  assert.equal(out.last?.content, 'queued text arrived', 'the model answered the queued message');
  assert.equal(c.messages[2]?.role === 'tool' && c.messages[2].content, 'The user chose option 2: "B"');
  assert.deepEqual(q.items(c.id), []);
});

void test('a queued message a hook blocks stays queued, first, and nothing is added', async () => {
  const q = new MessageQueue();
  const queue = sessionQueue(q);
  const c = userConversation('hello');
  queue.started(c.id);
  q.add(c.id, 'rm -rf please');
  const notices: string[] = [];
  const added = await queuedAfterRound(
    { queue, hooks: hooks('no deleting') },
    c,
    new AbortController().signal,
    (n) => notices.push(n),
    1,
  );
  assert.deepEqual(added, []);
  assert.deepEqual(
    q.items(c.id).map((i) => i.text),
    ['rm -rf please'],
  );
  assert.match(notices.join('\n'), /kept in the queue: no deleting/);
  assert.deepEqual(await queuedAfterRound({}, c, new AbortController().signal, () => undefined, 1), []);
});
