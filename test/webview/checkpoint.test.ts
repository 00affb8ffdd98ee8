import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Conversation } from '../../src/shared/protocol';
import { openHarness, snapshot, useBrowser } from './harness';

/*
 * The Restore button and panel (webview/chat/components/Checkpoint.tsx) in the real bundle: which
 * answers offer it, what the panel shows and what it posts to the host.
 */

const browser = useBrowser();

const conversation: Conversation = {
  id: 'c1',
  title: '',
  createdAt: 1,
  updatedAt: 1,
  model: '',
  params: {},
  messages: [
    { id: 'u1', role: 'user', text: 'change things', images: [], contexts: [], createdAt: 1 },
    { id: 'a1', role: 'assistant', content: 'edited', status: 'done', requestedModel: 'gw-chat', createdAt: 2 },
    { id: 'u2', role: 'user', text: 'thanks', images: [], contexts: [], createdAt: 3 },
    { id: 'a2', role: 'assistant', content: 'welcome', status: 'done', requestedModel: 'gw-chat', createdAt: 4 },
  ],
};

void test('only answers with a checkpoint offer Restore; the panel lists the files, skips changed ones unless ticked, and posts the choice', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot({ conversation }));
  // Another conversation's checkpoints are ignored.
  await h.send({
    type: 'checkpoints/list',
    conversationId: 'other',
    answers: [{ answerId: 'a2', files: 1, unrecorded: 0 }],
  });
  await h.send({
    type: 'checkpoints/list',
    conversationId: 'c1',
    answers: [{ answerId: 'a1', files: 2, unrecorded: 0 }],
  });
  await h.frames();
  const button = (id: string) =>
    h.page.locator(`article[data-message-id="${id}"] button`, { hasText: 'Restore files to before this answer' });
  assert.equal(await button('a1').count(), 1);
  assert.equal(await button('a2').count(), 0);

  await h.clearPosted();
  await button('a1').click();
  assert.deepEqual(await h.posted(), [{ type: 'checkpoints/preview', answerId: 'a1' }]);

  await h.send({
    type: 'checkpoints/plan',
    answerId: 'a1',
    files: [
      { path: '/ws/src/a.ts', relative: 'src/a.ts', status: 'ok', action: 'restore', diff: '@@ line 1 @@\n-new\n+old' },
      {
        path: '/ws/src/b.ts',
        relative: 'src/b.ts',
        status: 'changed',
        action: 'restore',
        diff: '@@ line 1 @@\n-mine\n+old',
      },
      { path: '/ws/src/c.ts', relative: 'src/c.ts', status: 'ok', action: 'delete', diff: '@@ line 1 @@\n-c' },
      { path: '/ws/src/d.ts', relative: 'src/d.ts', status: 'unrecorded', action: 'none', diff: '' },
    ],
  });
  await h.frames();
  const panel = h.page.locator('article[data-message-id="a1"] section.restore-panel');
  const text = await panel.innerText();
  assert.match(text, /src\/a\.ts\s+will be restored/);
  assert.match(text, /src\/b\.ts\s+changed since the answer: skipped unless you tick it/);
  assert.match(text, /src\/c\.ts\s+will be deleted \(the answer created it\)/);
  assert.match(text, /src\/d\.ts\s+cannot be restored/);
  assert.equal(await button('a1').count(), 0, 'the panel replaces the button');

  await h.clearPosted();
  await panel.locator('button', { hasText: 'Open diff' }).first().click();
  await panel.locator('.restore-file[data-path="src/b.ts"] input[type="checkbox"]').check();
  await panel.locator('label.restore-cut input').check();
  await panel.locator('button', { hasText: /^\s*Restore\s*$/ }).click();
  assert.deepEqual(await h.posted(), [
    { type: 'checkpoints/diff', answerId: 'a1', path: '/ws/src/a.ts' },
    { type: 'checkpoints/restore', answerId: 'a1', overwrite: ['/ws/src/b.ts'], cut: true },
  ]);

  await h.send({ type: 'checkpoints/plan', answerId: 'a1' });
  await h.frames();
  assert.equal(await panel.count(), 0, 'the panel closes');
  assert.equal(await button('a1').count(), 1);
});

void test("run_command's approval card says its effects cannot be restored; other cards do not", async () => {
  const h = await openHarness(browser());
  await h.send(snapshot({ conversation }));
  for (const [callId, name, preview] of [
    ['k1', 'run_command', 'command'],
    ['k2', 'write_file', 'diff'],
  ] as const)
    await h.send({
      type: 'tools/call',
      update: { callId, name, argumentsJson: '{}', state: 'awaiting-approval', readOnly: false, preview },
    });
  await h.frames();
  const note = (id: string) => h.page.locator(`section.toolcard[data-call-id="${id}"] .tc-note`);
  assert.match(await note('k1').innerText(), /not recorded in checkpoints: Restore cannot undo them/);
  assert.equal(await note('k2').count(), 0);
});
