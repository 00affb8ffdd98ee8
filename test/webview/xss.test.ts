import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GatewayClient } from '../../src/api/client';
import type { HostMessage } from '../../src/shared/protocol';
import { startGateway, type Gateway } from '../gateway/server';
import { openHarness, snapshot, type Harness, type PageGlobal, useBrowser } from './harness';
import { XSS_PAYLOADS } from './xss-corpus';

const browser = useBrowser();
let gw: Gateway;
/** Each payload as the gateway streamed it back through `#say` (the real wire path). */
const streamed: string[][] = [];

before(async () => {
  gw = await startGateway();
  const client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
  for (const p of XSS_PAYLOADS) {
    const chunks: string[] = [];
    await client.streamChat(
      { model: 'gw-chat', messages: [{ role: 'user', content: `#say ${p}` }] },
      {
        onEvent: (e) => {
          if (e.type === 'text') chunks.push(e.text);
        },
      },
    );
    streamed.push(chunks);
  }
});
after(async () => {
  await gw.close();
});

void test('the corpus has at least 100 payloads and the gateway echoes each one exactly', () => {
  assert.ok(XSS_PAYLOADS.length >= 100, `only ${XSS_PAYLOADS.length} payloads`);
  XSS_PAYLOADS.forEach((p, i) => assert.equal(streamed[i]?.join(''), p));
});

async function renderAll(h: Harness): Promise<void> {
  await h.send(snapshot());
  for (let i = 0; i < streamed.length; i++) {
    const id = `a${i}`;
    const requestId = `r${i}`;
    const chunks = streamed[i] ?? [];
    await h.page.evaluate((m) => (globalThis as unknown as PageGlobal).postMessage(m, '*'), {
      type: 'chat/message',
      requestId,
      message: { id, role: 'assistant', content: '', status: 'streaming', requestedModel: 'gw-chat', createdAt: i },
    } satisfies HostMessage);
    for (const c of chunks)
      await h.page.evaluate((m) => (globalThis as unknown as PageGlobal).postMessage(m, '*'), {
        type: 'chat/delta',
        requestId,
        messageId: id,
        content: c,
        reasoning: c,
      } satisfies HostMessage);
    await h.page.evaluate((m) => (globalThis as unknown as PageGlobal).postMessage(m, '*'), {
      type: 'chat/done',
      requestId,
      message: {
        id,
        role: 'assistant',
        content: chunks.join(''),
        reasoning: chunks.join(''),
        status: 'done',
        requestedModel: 'gw-chat',
        createdAt: i,
      },
    } satisfies HostMessage);
  }
  // The same payloads through the other ways text reaches the page: a restored conversation,
  // user messages, tool cards, errors, history titles and model names.
  const payload = (i: number) => XSS_PAYLOADS[i % XSS_PAYLOADS.length] ?? '';
  await h.send(
    snapshot({
      conversation: {
        id: 'c2',
        title: payload(0),
        createdAt: 1,
        updatedAt: 1,
        model: payload(1),
        params: {},
        messages: XSS_PAYLOADS.flatMap((p, i) => [
          {
            id: `u${i}`,
            role: 'user' as const,
            text: p,
            images: [],
            contexts: [{ fileName: p, language: p, text: p }],
            createdAt: i,
          },
          {
            id: `b${i}`,
            role: 'assistant' as const,
            content: p,
            status: 'done' as const,
            requestedModel: p,
            model: `${p}-x`,
            createdAt: i,
            notices: [p],
            error: { title: p, detail: p, actions: ['retry' as const] },
          },
        ]),
      },
    }),
  );
  // A long conversation opens at its newest messages: every payload is to reach the DOM, so the
  // earlier ones are mounted as a user would, from the button above them.
  // By keyboard: focusing the button scrolls it into view, which mounts a slice and moves the
  // button up (the text read is kept in place), so a click could land where it was; focus stays.
  await h.page.getByRole('button', { name: /earlier messages/ }).focus();
  await h.page.keyboard.press('Enter');
  await h.page
    .locator('.log article.msg')
    .nth(XSS_PAYLOADS.length * 2 - 1)
    .waitFor({ state: 'attached' });
  assert.equal(await h.page.locator('.log article.msg').count(), XSS_PAYLOADS.length * 2, 'every payload is mounted');
  for (let i = 0; i < XSS_PAYLOADS.length; i += 1) {
    await h.page.evaluate((m) => (globalThis as unknown as PageGlobal).postMessage(m, '*'), {
      type: 'tools/call',
      update: {
        callId: `x${i}`,
        name: payload(i),
        argumentsJson: payload(i + 1),
        state: 'done',
        readOnly: true,
        resultPreview: payload(i + 2),
      },
    } satisfies HostMessage);
  }
  await h.send({
    type: 'history/list',
    activeId: 'c2',
    entries: XSS_PAYLOADS.map((p, i) => ({ id: `h${i}`, title: p, updatedAt: i, messageCount: 1 })),
  });
  await h.send({
    type: 'models/list',
    loading: false,
    models: XSS_PAYLOADS.map((p) => ({ id: p, capabilities: [p], supportsImages: false })),
  });
  await h.send({ type: 'chat/notice', level: 'error', text: payload(3) });
  await h.page.getByRole('button', { name: 'History' }).click();
  // Give late loads (images, frames, fonts) a moment to show up.
  await h.page.waitForTimeout(300);
  await h.frames();
}

for (const mode of ['with the production CSP', 'without a CSP (the sanitiser alone)'] as const) {
  void test(`${XSS_PAYLOADS.length} hostile payloads render with zero script executions and zero network requests, ${mode}`, async () => {
    const h = await openHarness(browser(), { noCsp: mode !== 'with the production CSP' });
    await renderAll(h);
    assert.equal(await h.xssCount(), 0, 'a payload executed script');
    assert.deepEqual(h.foreignRequests, [], 'the page requested something outside the bundle');
    const dom = await h.page.evaluate(() => {
      const document = (globalThis as unknown as PageGlobal).document;
      return {
        scripts: document.querySelectorAll('script').length,
        frames: document.querySelectorAll('iframe, object, embed, frame').length,
        imgs: [...document.querySelectorAll('img')]
          .map((i) => i.getAttribute('src') ?? '')
          .filter((s) => !s.startsWith('data:image/')),
        handlers: [...document.querySelectorAll('*')].flatMap((el) =>
          [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName} ${a.name}`),
        ),
        badLinks: [...document.querySelectorAll('[href]')]
          .map((a) => a.getAttribute('href') ?? '')
          .filter((href) => !/^(https?:|mailto:)/i.test(href)),
        styles: document.querySelectorAll('body style, [style]').length,
      };
    });
    assert.equal(dom.scripts, 1, 'only the bundle script');
    assert.equal(dom.frames, 0);
    assert.deepEqual(dom.imgs, []);
    assert.deepEqual(dom.handlers, []);
    assert.deepEqual(dom.badLinks, []);
    assert.equal(dom.styles, 0);
    // The payloads are still visible to the user as text, not silently dropped.
    const text = await h.page.locator('article[data-message-id="b0"] .md').innerText();
    assert.match(text, /<script>__xss\(\)<\/script>/);
    if (mode === 'with the production CSP')
      assert.deepEqual(await h.cspViolations(), [], 'nothing even tried to break the CSP');
    await h.page.context().close();
  });
}
