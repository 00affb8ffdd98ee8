// A question's own model (a prompt file's or skill's `model`) answers that request only: the
// gateway sees it, the conversation keeps its model, and the next question goes to that again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useGateway } from '../../../../support/helpers';
import { openSession, question } from '../../../../support/sessionHarness';

const gw = useGateway();

function models(): string[] {
  return gw
    .requests()
    .filter((r) => r.method === 'POST' && r.route === '/v1/chat/completions')
    .map((r) => (r.body as { model: string }).model);
}

void test("a question's model is used for its request only", async () => {
  const h = openSession(gw);
  gw.resetCounts();
  void h.session.send('r1', {
    ...question('with the prompt file'),
    model: 'gw-vision',
    agent: 'ask',
    tools: ['read_file'],
  });
  await h.until(() => h.received.some((m) => m.type === 'chat/done' && m.requestId === 'r1'), 'the first answer');
  void h.session.send('r2', question('then as usual'));
  await h.until(() => h.received.some((m) => m.type === 'chat/done' && m.requestId === 'r2'), 'the second answer');
  assert.deepEqual(models().slice(-2), ['gw-vision', 'gw-chat']);
  assert.equal(h.session.shown.model, '', 'the conversation keeps following the default model');
  const answers = h.session.shown.messages.filter((m) => m.role === 'assistant');
  assert.deepEqual(
    answers.map((a) => a.role === 'assistant' && a.requestedModel),
    ['gw-vision', 'gw-chat'],
  );
  h.session.dispose();
});
