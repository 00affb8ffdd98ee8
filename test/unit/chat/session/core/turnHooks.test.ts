import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Conversation } from '../../../../../src/shared/protocol';
import type { SessionHooks } from '../../../../../src/chat/session/core/sessionDeps';
import {
  afterAnswer,
  beforeUserTurn,
  HOOK_CONTEXT_LABEL,
  HookBlocked,
} from '../../../../../src/chat/session/core/turnHooks';

const signal = new AbortController().signal;
function conv(withAnswer: boolean): Conversation {
  return {
    id: 'c',
    title: '',
    model: '',
    createdAt: 0,
    updatedAt: 0,
    messages: [
      ...(withAnswer
        ? ([
            { id: 'u0', role: 'user', text: 'earlier', images: [], contexts: [], createdAt: 0 },
            { id: 'a0', role: 'assistant', content: 'ok', status: 'done', createdAt: 0 },
          ] as Conversation['messages'])
        : []),
      { id: 'u1', role: 'user', text: 'do it', images: [], contexts: [], createdAt: 0 },
    ],
  } as Conversation;
}
function hooks(
  r: { blocked?: string; context?: string; notices?: string[]; continueWith?: string },
  seen: unknown[] = [],
): SessionHooks {
  return {
    promptSubmitted: (e) => {
      seen.push(e);
      return Promise.resolve(r);
    },
    beforeCompact: () => Promise.resolve({}),
    turnStopped: (e) => {
      seen.push(e);
      return Promise.resolve(r);
    },
  };
}

void test("SessionStart is the conversation's first message; the hooks' context rides with the message, replaced on a rerun", async () => {
  const seen: { first?: boolean; prompt?: string }[] = [];
  const c = conv(false);
  const notices: string[] = [];
  assert.equal(
    await beforeUserTurn(hooks({ context: 'ctx 1', notices: ['warn'] }, seen), c, signal, (n) => notices.push(n)),
    undefined,
  );
  assert.deepEqual([seen[0]?.first, seen[0]?.prompt], [true, 'do it']);
  assert.deepEqual(notices, ['warn']);
  await beforeUserTurn(hooks({ context: 'ctx 2' }), c, signal, () => undefined);
  const last = c.messages.at(-1);
  assert.ok(last?.role === 'user');
  assert.deepEqual(
    last.attachments?.map((a) => [a.label, a.text]),
    [[HOOK_CONTEXT_LABEL, 'ctx 2']],
  );
  await beforeUserTurn(hooks({}), c, signal, () => undefined);
  assert.equal(last.attachments, undefined);
  const later: { first?: boolean }[] = [];
  await beforeUserTurn(hooks({}, later), conv(true), signal, () => undefined);
  assert.equal(later[0]?.first, false);
});

void test('a block comes back as its reason (the message stays, nothing is lost); no hooks, no call', async () => {
  const c = conv(false);
  assert.equal(
    await beforeUserTurn(hooks({ blocked: 'secrets in prompt' }), c, signal, () => undefined),
    'secrets in prompt',
  );
  assert.equal(c.messages.length, 1);
  assert.equal(await beforeUserTurn(undefined, c, signal, () => undefined), undefined);
  assert.equal(new HookBlocked('why').view.detail, 'why');
});

void test('Stop: a block becomes the next message, marked as from the hook', async () => {
  const seen: { stopHookActive?: boolean }[] = [];
  const m = await afterAnswer(
    hooks({ continueWith: 'run the tests' }, seen),
    conv(true),
    true,
    signal,
    () => undefined,
    5,
  );
  assert.equal(m?.text, '[Stop hook] run the tests');
  assert.equal(seen[0]?.stopHookActive, true);
  assert.equal(await afterAnswer(hooks({}), conv(true), false, signal, () => undefined, 5), undefined);
});
