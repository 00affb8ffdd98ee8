// The approval card's warning (webview/chat/components/ToolCard.tsx) in the real bundle: a call that
// asks every time (a protected or secret file) says why and offers no "Always allow"; a warning
// alone (Restricted Mode) keeps "Always allow", which the host then keeps for the conversation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AssistantMessage } from '../../src/shared/protocol';
import { openHarness, snapshot, useBrowser } from './harness';

const browser = useBrowser();

const answer = (calls: { id: string; name: string; args: string }[]): AssistantMessage => ({
  id: 'a1',
  role: 'assistant',
  content: '',
  status: 'done',
  requestedModel: 'gw-chat',
  createdAt: 2,
  toolCalls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } })),
});

void test('a card that asks every time shows its warning and no "Always allow"; the warning goes once decided', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.send({
    type: 'chat/message',
    requestId: 'r1',
    message: answer([
      { id: 's1', name: 'read_file', args: '{"path":".env"}' },
      { id: 's2', name: 'list_directory', args: '{"path":"."}' },
    ]),
  });
  const secret = 'This file may contain secrets (keys, tokens, passwords); what is read is sent to the model.';
  await h.send({
    type: 'tools/call',
    update: {
      callId: 's1',
      name: 'read_file',
      argumentsJson: '{"path":".env"}',
      state: 'awaiting-approval',
      readOnly: true,
      warning: secret,
      askEveryTime: true,
    },
  });
  const untrusted = 'This workspace is not trusted (Restricted Mode): tools ask every time.';
  await h.send({
    type: 'tools/call',
    update: {
      callId: 's2',
      name: 'list_directory',
      argumentsJson: '{"path":"."}',
      state: 'awaiting-approval',
      readOnly: true,
      warning: untrusted,
    },
  });
  const card = h.page.locator('[data-call-id="s1"]');
  assert.equal(
    await card
      .getByRole('alert')
      .innerText()
      .then((t) => t.trim()),
    secret,
  );
  assert.equal(await card.getByRole('button', { name: 'Always allow' }).count(), 0, 'no always-allow for a secret');
  assert.equal(await card.getByRole('button', { name: 'Allow', exact: true }).count(), 1);
  const other = h.page.locator('[data-call-id="s2"]');
  assert.equal(
    await other
      .getByRole('alert')
      .innerText()
      .then((t) => t.trim()),
    untrusted,
  );
  assert.equal(await other.getByRole('button', { name: 'Always allow' }).count(), 1);

  await h.send({
    type: 'tools/call',
    update: {
      callId: 's1',
      name: 'read_file',
      argumentsJson: '{"path":".env"}',
      state: 'denied',
      readOnly: true,
      warning: secret,
      askEveryTime: true,
    },
  });
  assert.equal(await card.getByRole('alert').count(), 0);
  await h.page.context().close();
});
