// The Thinking block (issue 22 item 4): open and growing while the answer streams, folded with its
// duration once it is done, and never mixed into the answer's text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AssistantMessage } from '../../src/shared/protocol';
import { openHarness, shownText, snapshot, useBrowser } from './harness';

const browser = useBrowser();

const answer = (extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
  id: 'a1',
  role: 'assistant',
  content: '',
  status: 'streaming',
  requestedModel: 'gw-think',
  createdAt: 2,
  ...extra,
});

void test('thinking shows live while it streams, then folds with how long it took', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.send({ type: 'chat/message', requestId: 'r1', message: answer() });
  const details = h.page.locator('details.reasoning');
  assert.equal(await details.isVisible(), false, 'no block before any thinking');
  await h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a1', reasoning: 'Weighing the options. ' });
  await details.waitFor({ state: 'visible' });
  assert.notEqual(await details.getAttribute('open'), null, 'open while streaming');
  assert.match(await details.locator('summary').innerText(), /Thinking…/);
  await h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a1', reasoning: 'Picking one.' });
  assert.match(await details.locator('.reasoning-text').innerText(), /Weighing the options\. Picking one\./);
  await h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a1', content: 'The answer.' });
  await h.send({
    type: 'chat/done',
    requestId: 'r1',
    message: answer({
      content: 'The answer.',
      reasoning: 'Weighing the options. Picking one.',
      reasoningMs: 3200,
      status: 'done',
    }),
  });
  assert.equal(await details.getAttribute('open'), null, 'folded once done');
  assert.match(await details.locator('summary').innerText(), /Thought for 3 s/);
  assert.equal(await h.page.locator('.md').innerText(), 'The answer.');
  await details.locator('summary').click();
  // The click opens it; the text is read once it shows.
  await details.locator('.reasoning-text').waitFor({ state: 'visible' });
  assert.match(await shownText(details, /Picking one\./), /Picking one\./);
  await h.page.context().close();
});

void test('the header shows the reasoning effort of a model that has one', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.send({
    type: 'models/list',
    loading: false,
    models: [
      { id: 'gw-chat', capabilities: [], supportsImages: false, reasoningEffort: 'high' },
      { id: 'other', capabilities: [], supportsImages: false },
    ],
  });
  const info = h.page.locator('.model-info');
  await info.locator('.model-effort').waitFor({ state: 'visible' });
  assert.match(await info.innerText(), /Effort: high/);
  await h.page.context().close();
});
