import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ToolDefinition } from '../../src/api/chat/wire';
import type { ContextMeter, HostMessage } from '../../src/shared/protocol';
import { startGateway, type Gateway } from '../gateway/server';
import { openSession, question } from '../support/sessionHarness';
import { openHarness, snapshot, useBrowser } from './harness';

/*
 * The context meter and the "Earlier conversation summarised" block, fed with what a real
 * session (against the local gateway's windowed models) sends.
 */

const browser = useBrowser();
let gw: Gateway;
before(async () => {
  gw = await startGateway({ contextModels: true });
});
after(async () => {
  await gw.close();
});

const TOOL: ToolDefinition = {
  type: 'function',
  function: { name: 'read_file', description: 'r'.repeat(400), parameters: { type: 'object', properties: {} } },
};

/** A session on `model` after one answered question: its messages for the page. */
async function sessionAfterOneAnswer(model: string, toolDescriptionChars = 400) {
  const s = openSession(gw, undefined, { settings: { chatModel: model } });
  const def = { ...TOOL, function: { ...TOOL.function, description: 'r'.repeat(toolDescriptionChars) } };
  s.session.setToolExecutor({
    definitions: () => [def],
    readOnlyDefinitions: () => [def],
    toolChoice: () => undefined,
    execute: async () => [],
  });
  await s.session.send('r1', question('hello there'));
  await s.until(() => s.received.some((m) => m.type === 'chat/done' || m.type === 'chat/error'), 'the answer');
  const meter = s.received.filter((m) => m.type === 'context/meter').at(-1);
  assert.ok(meter && meter.type === 'context/meter');
  return { s, meter: meter.meter, snap: snapshot({ conversation: structuredClone(s.session.shown) }) };
}

void test('the meter shows used over window before sending, grows as the user types, and its tooltip has the figures', async () => {
  const { meter, snap } = await sessionAfterOneAnswer('gw-window-openai');
  const h = await openHarness(browser());
  await h.send(snap);
  await h.send({ type: 'context/meter', meter });
  const used = meter.system + meter.tools + meter.history + meter.attachments;
  const text = h.page.locator('.context-text');
  assert.equal(await text.textContent(), `${used} of 8192 tokens`);
  const tip = (await h.page.locator('.context-bar').getAttribute('title')) ?? '';
  assert.match(tip, new RegExp(`Tool definitions: ${meter.tools}`));
  assert.match(tip, /System and rules: \d+/);
  assert.match(tip, /History: \d+/);
  assert.match(tip, /Attachments: 0/);
  assert.match(tip, /Reserve for the answer: 2048/);
  assert.match(tip, /Window: 8192 tokens, from the model list \(context_window\)/);
  assert.match(tip, /Last request, counted by the server: \d+/);
  assert.equal(await h.page.locator('.context-meter').getAttribute('data-level'), 'ok');
  // Typing 4000 characters adds about a thousand tokens before anything is sent.
  await h.page.locator('textarea').fill('a'.repeat(4000));
  await h.frames();
  const grown = Number((await text.textContent())?.split(' ')[0]);
  assert.ok(grown >= used + 900 && grown <= used + 1100, `${grown} after typing, ${used} before`);
});

void test('the meter turns amber then red as the window fills', async () => {
  const { meter, snap } = await sessionAfterOneAnswer('gw-window-openai');
  const h = await openHarness(browser());
  await h.send(snap);
  const at = async (history: number): Promise<string | null> => {
    const m: ContextMeter = { ...meter, history };
    await h.send({ type: 'context/meter', meter: m });
    return h.page.locator('.context-meter').getAttribute('data-level');
  };
  assert.equal(await at(1000), 'ok');
  assert.equal(await at(4500), 'high');
  assert.equal(await at(6000), 'full');
});

void test('tools and system prompt past the window: the figures and one click each for no tools or read-only tools', async () => {
  gw.setContextWindow({ model: 'gw-window-llama', window: 600 });
  try {
    const { meter, snap } = await sessionAfterOneAnswer('gw-window-llama', 4000);
    assert.equal(meter.fixedTooLarge, true);
    const h = await openHarness(browser());
    await h.send(snap);
    await h.send({ type: 'context/meter', meter });
    const box = h.page.locator('.context-fixed');
    assert.match(
      (await box.textContent()) ?? '',
      new RegExp(`tool definitions \\(${meter.tools}\\).*exceed the window \\(600 tokens\\)`),
    );
    await h.clearPosted();
    await box.getByRole('button', { name: 'Send without tools' }).click();
    await box.getByRole('button', { name: 'Read-only tools only' }).click();
    assert.deepEqual(await h.posted(), [
      { type: 'context/toolMode', mode: 'none' },
      { type: 'context/toolMode', mode: 'readOnly' },
    ]);
  } finally {
    gw.setContextWindow({ model: 'gw-window-llama', window: 4096 });
  }
});

void test('Compact conversation asks the host; the summarised block sits under the last summarised message, collapsed', async () => {
  const { s, meter } = await sessionAfterOneAnswer('gw-window-openai');
  for (const [i, q] of ['second', 'third'].entries()) {
    await s.session.send(`q${i}`, question(q));
    await s.until(() => s.received.some((m) => m.type === 'chat/done' && m.requestId === `q${i}`), q);
  }
  const h = await openHarness(browser());
  await h.send(snapshot({ conversation: structuredClone(s.session.shown) }));
  await h.send({ type: 'context/meter', meter });
  await h.clearPosted();
  await h.page.getByRole('button', { name: 'Compact conversation' }).click();
  assert.deepEqual(await h.posted(), [{ type: 'context/compact' }]);

  // What the host does on that message, and what it sends back.
  s.received.length = 0;
  await s.session.compact();
  for (const m of s.received) await h.send(m as HostMessage);
  const block = h.page.locator('details.summary-block');
  // Its code is a chunk loaded when a summary is first shown (webview/chat/lazy.ts).
  await block.waitFor({ state: 'attached' });
  assert.equal(await block.count(), 1);
  assert.match((await block.locator('summary').textContent()) ?? '', /Earlier conversation summarised \(4 messages\)/);
  assert.equal(await block.evaluate((d) => (d as unknown as { open: boolean }).open), false);
  // Under the fourth message; the four messages above it are still shown.
  const through = s.session.shown.compaction!.throughId;
  const prev = await block.evaluate((d) => d.previousElementSibling?.getAttribute('data-message-id'));
  assert.equal(prev, through);
  assert.equal(await h.page.locator('article[data-message-id]').count(), 6);
  await block.locator('summary').click();
  assert.match((await block.locator('.summary-text').textContent()) ?? '', /^Summary of \d+ characters/);
  assert.ok(await block.locator('.summary-text').isVisible());
});
