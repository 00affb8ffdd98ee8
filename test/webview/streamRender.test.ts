import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AssistantMessage, HostMessage } from '../../src/shared/protocol';
import { TextChunks } from '../../webview/chat/textChunks';
import { openHarness, snapshot, useBrowser } from './harness';

/*
 * How a streamed answer reaches the screen: a closed code block is highlighted in idle time, not
 * in the frame that shows it; long reasoning is kept in segments.
 */

const browser = useBrowser();

const answer = (id: string, extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
  id,
  role: 'assistant',
  content: '',
  status: 'streaming',
  requestedModel: 'gw-chat',
  createdAt: 2,
  ...extra,
});

interface IdleGlobal {
  __idle: { timeout?: number }[];
}

void test('a code block that closes is shown plain in its frame and highlighted in idle time, with a timeout', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.send({ type: 'chat/message', requestId: 'r1', message: answer('a1') });
  // Idle callbacks are held, to see what the frame alone shows.
  // A string: tsx would wrap a function assigned here in a helper the page does not have.
  await h.page.evaluate(
    'window.__idle = []; window.requestIdleCallback = (cb, o) => window.__idle.push({ cb, timeout: o && o.timeout });',
  );
  const send = (content: string): Promise<void> =>
    h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a1', content } satisfies HostMessage);
  await send('Code:\n\n```python\ndef f(x):\n    return x + 1\n');
  await send('```\n\n```js\nconst y = 2;\n```\n\nAfter.');
  const blocks = h.page.locator('.md-frozen pre code');
  assert.equal(await blocks.count(), 2);
  assert.equal(await h.page.locator('.md-frozen .hljs-keyword').count(), 0, 'highlighted inside the frame');
  const held = await h.page.evaluate(() => (globalThis as unknown as IdleGlobal).__idle.map((i) => i.timeout));
  assert.ok(held.length >= 1 && held.every((t) => typeof t === 'number' && t > 0), `idle requests: ${held}`);
  // highlight.js is a chunk loaded with the first code block (markdown.ts): an idle callback that
  // runs before it is here asks for another one once it is. Only idle callbacks highlight.
  const keywords = h.page.locator('.md-frozen pre code .hljs-keyword');
  for (let i = 0; i < 100 && (await keywords.count()) === 0; i++) {
    await h.page.evaluate(
      'while (window.__idle.length) window.__idle.shift().cb({ timeRemaining: () => 50, didTimeout: false });',
    );
    await h.frames();
  }
  assert.equal(await keywords.count(), 3, 'def, return and const');
  assert.equal(await blocks.nth(0).innerText(), 'def f(x):\n    return x + 1\n', 'the code itself is unchanged');
  await h.page.context().close();
});

void test('with the real idle callback a closed block is highlighted soon after, even while the stream goes on', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.send({ type: 'chat/message', requestId: 'r1', message: answer('a1') });
  await h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a1', content: '```ts\nconst a = 1;\n```\n\n' });
  for (let i = 0; i < 10; i++)
    await h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a1', content: `more text ${i} ` });
  await h.page.locator('.md-frozen pre code .hljs-keyword').first().waitFor({ timeout: 2000 });
  await h.page.context().close();
});

void test('long reasoning is kept in segments while it streams, and shows exactly the text sent', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.send({ type: 'chat/message', requestId: 'r1', message: answer('a1') });
  let sent = '';
  for (let i = 0; i < 300; i++) {
    const piece = `step ${i}: consider the files\n`;
    sent += piece;
    await h.page.evaluate(
      (m) => (globalThis as unknown as { postMessage(m: unknown, o: string): void }).postMessage(m, '*'),
      { type: 'chat/delta', requestId: 'r1', messageId: 'a1', reasoning: piece } satisfies HostMessage,
    );
  }
  // One paragraph with no line break at all still ends segments (at spaces).
  const paragraph = 'word '.repeat(3000);
  sent += paragraph;
  await h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a1', reasoning: paragraph });
  const pre = h.page.locator('.reasoning-text');
  assert.ok((await pre.locator('.md-live-seg').count()) >= 300 / 40 + 3, 'segments');
  assert.equal(await pre.evaluate((el) => el.textContent), sent);
  await h.page.context().close();
});

void test("the renderer's text, kept as the pieces it arrived in, reads exactly like the joined string", () => {
  const t = new TextChunks();
  let s = '';
  // A fixed pseudo-random sequence, so a failure repeats.
  let seed = 7;
  const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  for (let i = 0; i < 300; i++) {
    const piece = Array.from({ length: rnd(12) }, () => 'ab\n c'[rnd(5)]).join('');
    t.append(piece);
    s += piece;
    for (let k = 0; k < 5; k++) {
      const a = rnd(s.length + 2);
      const b = a + rnd(30);
      assert.equal(t.slice(a, b), s.slice(a, b));
      assert.equal(t.slice(a), s.slice(a));
      assert.equal(t.indexOf('\n', a), a >= s.length ? -1 : s.indexOf('\n', a));
      assert.equal(t.charAt(a), s.charAt(a));
    }
  }
  assert.equal(t.toString(), s);
  assert.equal(t.length, s.length);
});
