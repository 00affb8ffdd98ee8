import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GatewayClient } from '../../src/api/client';
import type { AssistantMessage, HostMessage } from '../../src/shared/protocol';
import { startGateway, type Gateway } from '../gateway/server';
import { openHarness, shownText, snapshot, type Harness, type PageGlobal, useBrowser } from './harness';

const browser = useBrowser();
let gw: Gateway;
let client: GatewayClient;
before(async () => {
  gw = await startGateway();
  client = new GatewayClient({ baseUrl: gw.url, apiKey: gw.keys.valid, maxRetries: 0 });
});
after(async () => {
  await gw.close();
});

const answer = (id: string, extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
  id,
  role: 'assistant',
  content: '',
  status: 'streaming',
  requestedModel: 'gw-chat',
  createdAt: 2,
  ...extra,
});

/** Streams the gateway's answer to `prompt` into the page as the host would: message, deltas, done. */
async function streamFromGateway(h: Harness, prompt: string, id = 'a1', requestId = 'r1'): Promise<string> {
  await h.send({ type: 'chat/busy', requestId });
  await h.send({ type: 'chat/message', requestId, message: answer(id) });
  const deltas: string[] = [];
  const result = await client.streamChat(
    { model: 'gw-chat', messages: [{ role: 'user', content: prompt }] },
    {
      onEvent: (e) => {
        if (e.type === 'text') deltas.push(e.text);
      },
    },
  );
  for (const d of deltas)
    await h.page.evaluate((m) => (globalThis as unknown as PageGlobal).postMessage(m, '*'), {
      type: 'chat/delta',
      requestId,
      messageId: id,
      content: d,
    } satisfies HostMessage);
  await h.frames();
  const content = result.message.content ?? '';
  await h.send({
    type: 'chat/done',
    requestId,
    message: answer(id, {
      content,
      status: 'done',
      finishReason: result.finishReason,
      usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
    }),
  });
  return content;
}

void test('a streamed markdown answer renders headings, lists, tables and highlighted code, and images only as links', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await streamFromGateway(h, '#markdown');
  const md = h.page.locator('article[aria-label="Assistant"] .md');
  assert.ok((await md.locator('h1, h2').count()) >= 1);
  assert.ok((await md.locator('li').count()) >= 2);
  assert.equal(await md.locator('table').count(), 1);
  assert.ok(
    (await md.locator('pre code .hljs-keyword, pre code .hljs-string').count()) > 0,
    'code is highlighted once complete',
  );
  assert.ok((await md.locator('[role="group"][aria-label="Code block"]').count()) >= 4);
  assert.equal(await h.page.locator('img').count(), 0, 'no <img> from model output');
  assert.ok((await md.locator('a.remote-image').count()) >= 1);
  assert.deepEqual(h.foreignRequests, []);
  assert.match(await h.page.locator('.usage').innerText(), /Tokens: 3 prompt \+ 5 completion = 8/);
  await h.page.context().close();
});

void test('while streaming only the unfinished tail is re-rendered; finished blocks stay the same DOM nodes', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.send({ type: 'chat/busy', requestId: 'r1' });
  await h.send({ type: 'chat/message', requestId: 'r1', message: answer('a1') });
  await h.send({
    type: 'chat/delta',
    requestId: 'r1',
    messageId: 'a1',
    content: 'First paragraph.\n\nSecond paragraph starts',
  });
  await h.page.evaluate(() => {
    const g = globalThis as unknown as PageGlobal;
    g.__first = g.document.querySelector('.md-frozen .md-block');
  });
  await h.send({
    type: 'chat/delta',
    requestId: 'r1',
    messageId: 'a1',
    content: ' and goes on.\n\n```ts\nconst x = 1;\n```\n\nThird',
  });
  const same = await h.page.evaluate(() => {
    const g = globalThis as unknown as PageGlobal;
    return g.document.querySelector('.md-frozen .md-block') === g.__first;
  });
  assert.equal(same, true);
  assert.equal(await h.page.locator('.md-frozen .md-block').count(), 3);
  assert.equal((await h.page.locator('.md-tail').innerText()).trim(), 'Third');
  await h.page.context().close();
});

void test('Stop (button and Escape) asks the host to cancel the running request; the stopped answer keeps its text', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.page.locator('textarea[aria-label="Message"]').fill('#long 300');
  await h.page.keyboard.press('Enter');
  const sent = (await h.posted()).find((m) => m.type === 'chat/send');
  assert.equal(sent?.text, '#long 300');
  const requestId = String(sent?.requestId);
  const stop = h.page.getByRole('button', { name: 'Stop' });
  assert.equal(await stop.isVisible(), true);
  await h.send({ type: 'chat/message', requestId, message: answer('a1') });
  await h.send({ type: 'chat/delta', requestId, messageId: 'a1', content: 'Partial answer so far' });
  await stop.click();
  await h.page.keyboard.press('Escape');
  const cancels = (await h.posted()).filter((m) => m.type === 'chat/cancel');
  assert.equal(cancels.length, 2);
  assert.equal(cancels[0]?.requestId, requestId);
  await h.send({
    type: 'chat/done',
    requestId,
    message: answer('a1', { content: 'Partial answer so far', status: 'stopped' }),
  });
  assert.match(
    await h.page.locator('article[aria-label="Assistant"]').innerText(),
    /Partial answer so far[\s\S]*Stopped\./,
  );
  assert.equal(await h.page.getByRole('button', { name: 'Send', exact: true }).isVisible(), true);
  await h.page.context().close();
});

void test('Enter sends, Shift+Enter adds a line, and the draft survives a reload of the page', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  const box = h.page.locator('textarea[aria-label="Message"]');
  await box.click();
  await h.page.keyboard.type('line one');
  await h.page.keyboard.press('Shift+Enter');
  await h.page.keyboard.type('line two');
  assert.equal(await box.inputValue(), 'line one\nline two');
  assert.equal((await h.posted()).filter((m) => m.type === 'chat/send').length, 0);
  const state = await h.page.evaluate(() => (globalThis as unknown as PageGlobal).__state);
  await h.page.context().close();

  const again = await openHarness(browser(), { state });
  await again.send(snapshot());
  assert.equal(await again.page.locator('textarea[aria-label="Message"]').inputValue(), 'line one\nline two');
  await again.page.locator('textarea[aria-label="Message"]').press('Enter');
  const sent = (await again.posted()).find((m) => m.type === 'chat/send');
  assert.equal(sent?.text, 'line one\nline two');
  await again.page.context().close();
});

void test('code-block buttons post copy, insert and open with the block text and language', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await streamFromGateway(h, '#say Here:\n\n```python\nprint("hi")\n```\n');
  const block = h.page.locator('[role="group"][aria-label="Code block"]').first();
  await block.getByRole('button', { name: 'Copy code' }).click();
  await block.getByRole('button', { name: 'Insert at cursor' }).click();
  await block.getByRole('button', { name: 'Open in new editor' }).click();
  const acts = (await h.posted()).filter((m) => String(m.type).startsWith('code/'));
  assert.deepEqual(
    acts.map((m) => m.type),
    ['code/copy', 'code/insert', 'code/open'],
  );
  assert.equal(acts[0]?.code, 'print("hi")\n');
  assert.equal(acts[1]?.language, 'python');
  await h.page.getByRole('button', { name: 'Copy message' }).click();
  assert.ok((await h.posted()).some((m) => m.type === 'message/copy' && m.messageId === 'a1'));
  await h.page.context().close();
});

void test('a tool card asks for approval, posts the decision, then shows the result collapsed', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.send({
    type: 'chat/message',
    requestId: 'r1',
    message: answer('a1', {
      status: 'done',
      toolCalls: [
        { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/a.ts"}' } },
      ],
    }),
  });
  await h.send({
    type: 'tools/call',
    update: {
      callId: 'call_1',
      name: 'read_file',
      argumentsJson: '{"path":"src/a.ts"}',
      state: 'awaiting-approval',
      readOnly: true,
    },
  });
  const card = h.page.getByRole('region', { name: 'Tool call: read_file' });
  assert.match(await card.innerText(), /"path": "src\/a\.ts"/);
  assert.equal(await card.getByRole('button', { name: 'Always allow' }).count(), 1);
  await card.getByRole('button', { name: 'Allow', exact: true }).click();
  assert.deepEqual(
    (await h.posted()).filter((m) => m.type === 'tools/decide'),
    [{ type: 'tools/decide', callId: 'call_1', decision: 'allow' }],
  );
  await h.send({
    type: 'tools/call',
    update: {
      callId: 'call_1',
      name: 'read_file',
      argumentsJson: '{"path":"src/a.ts"}',
      state: 'done',
      readOnly: true,
      resultPreview: 'export const a = 1;',
    },
  });
  assert.equal(await card.getByRole('button', { name: 'Allow', exact: true }).count(), 0);
  const result = card.locator('details.tc-result');
  assert.equal(await result.getAttribute('open'), null);
  await result.locator('summary').click();
  assert.match(await result.innerText(), /export const a = 1;/);

  await h.send({
    type: 'tools/call',
    update: {
      callId: 'call_2',
      name: 'write_file',
      argumentsJson: '{bad json',
      state: 'awaiting-approval',
      readOnly: false,
    },
  });
  const writeCard = h.page.getByRole('region', { name: 'Tool call: write_file' });
  assert.equal(
    await writeCard.getByRole('button', { name: 'Always allow' }).count(),
    0,
    'no always-allow for tools that change things',
  );
  assert.match(await writeCard.innerText(), /\{bad json/);
  await writeCard.getByRole('button', { name: 'Deny' }).click();
  assert.ok(
    (await h.posted()).some((m) => m.type === 'tools/decide' && m.decision === 'deny' && m.callId === 'call_2'),
  );
  await h.page.context().close();
});

void test('an inline error keeps the partial answer and its buttons act (Set API Key, Retry, Show Log)', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.send({ type: 'chat/message', requestId: 'r1', message: answer('a1') });
  await h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a1', content: 'Half of the' });
  await h.send({
    type: 'chat/error',
    requestId: 'r1',
    error: {
      title: 'The API key was refused (401)',
      detail: 'Run "Set API Key".',
      actions: ['setApiKey', 'retry', 'showLog'],
    },
    message: answer('a1', {
      content: 'Half of the',
      status: 'error',
      error: {
        title: 'The API key was refused (401)',
        detail: 'Run "Set API Key".',
        actions: ['setApiKey', 'retry', 'showLog'],
      },
    }),
  });
  const alert = h.page.getByRole('alert');
  assert.match(await alert.innerText(), /401/);
  assert.match(await h.page.locator('article[aria-label="Assistant"] .md').innerText(), /Half of the/);
  await alert.getByRole('button', { name: 'Set API Key' }).click();
  await alert.getByRole('button', { name: 'Show Log' }).click();
  await alert.getByRole('button', { name: 'Retry' }).click();
  const posted = await h.posted();
  assert.deepEqual(
    posted.filter((m) => m.type === 'error/action').map((m) => m.action),
    ['setApiKey', 'showLog'],
  );
  assert.equal(posted.filter((m) => m.type === 'chat/retry').length, 1);
  await h.page.context().close();
});

void test('a link click goes to the host and never navigates the webview', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await streamFromGateway(h, '#say See [the docs](https://example.com/docs?q=1).');
  await h.page.getByRole('link', { name: 'the docs' }).click();
  assert.ok((await h.posted()).some((m) => m.type === 'link/open' && m.href === 'https://example.com/docs?q=1'));
  assert.equal(h.page.url(), 'http://webview.harness/');
  assert.deepEqual(h.foreignRequests, []);
  await h.page.context().close();
});

void test('a link to an international domain goes out in its ASCII form, and a look-alike written as xn-- is shown as written', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  // "аpple" with a Cyrillic "а", written out, and the same host already in its ASCII form.
  await streamFromGateway(h, '#say Try https://\u0430pple.com/login or https://xn--pple-43d.com/login now.');
  const links = await h.page
    .locator('.msg.assistant .md a')
    .evaluateAll((els) => els.map((e) => [e.textContent, e.getAttribute('href')]));
  assert.deepEqual(links, [
    ['https://\u0430pple.com/login', 'https://xn--pple-43d.com/login'],
    // Shown as written: it never turns into a Unicode name that reads as "apple.com".
    ['https://xn--pple-43d.com/login', 'https://xn--pple-43d.com/login'],
  ]);
  await h.page.context().close();
});

void test('length and content_filter endings show Continue and a notice; an aligned model is named', async () => {
  const h = await openHarness(browser());
  await h.send(
    snapshot({
      conversation: {
        id: 'c1',
        title: 't',
        createdAt: 1,
        updatedAt: 1,
        model: 'gw-latest',
        params: {},
        messages: [
          { id: 'u1', role: 'user', text: 'hi', images: [], contexts: [], createdAt: 1 },
          answer('a0', { content: 'filtered', status: 'done', finishReason: 'content_filter' }),
          { id: 'u2', role: 'user', text: 'more', images: [], contexts: [], createdAt: 3 },
          answer('a1', {
            content: 'cut off',
            status: 'done',
            finishReason: 'length',
            requestedModel: 'gw-latest',
            model: 'gw-chat-2026-11',
          }),
        ],
      },
    }),
  );
  assert.match(await h.page.locator('[data-message-id="a0"]').innerText(), /content_filter/);
  assert.match(
    await h.page.locator('[data-message-id="a1"]').innerText(),
    /Answered by gw-chat-2026-11 \(asked for gw-latest\)/,
  );
  await h.page.getByRole('button', { name: 'Continue' }).click();
  assert.ok((await h.posted()).some((m) => m.type === 'chat/continue'));
  await h.page.context().close();
});

void test('the model box lists /v1/models with capabilities and warns when an attached image meets a text-only model', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  const models = await client.listModels();
  await h.send({
    type: 'models/list',
    loading: false,
    models: models.map((m) => ({
      id: m.id,
      capabilities: m.capabilities ?? [],
      supportsImages: Boolean(m.capabilities?.includes('image')),
    })),
  });
  const options = await h.page
    .locator('#model-list option')
    .evaluateAll((os) => os.map((o) => o.getAttribute('value') ?? ''));
  assert.ok(options.includes('gw-vision'));
  await h.send({
    type: 'images/picked',
    images: [{ name: 'dot.png', mime: 'image/png', dataUrl: 'data:image/png;base64,iVBORw0KGgo=', bytes: 8 }],
    problems: [],
  });
  assert.equal(await h.page.getByRole('img', { name: 'Attached image: dot.png' }).count(), 1);
  assert.match(await h.page.locator('.composer-notes').innerText(), /gw-chat does not list image input/);
  const input = h.page.getByRole('combobox', { name: 'Model' }).or(h.page.getByLabel('Model', { exact: true }));
  await input.fill('my-custom-model');
  await input.press('Enter');
  await input.blur();
  assert.ok((await h.posted()).some((m) => m.type === 'chat/setModel' && m.model === 'my-custom-model'));
  await h.page.context().close();
});

void test('history lists conversations and renames or deletes them (delete asks once more)', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.page.getByRole('button', { name: 'History' }).click();
  // The panel asks for the list once its chunk has loaded, which a loaded machine can delay.
  await h.page.waitForFunction(
    () => (globalThis as unknown as PageGlobal).__posted.some((m) => m.type === 'history/list'),
    undefined,
    { timeout: 10_000 },
  );
  assert.ok((await h.posted()).some((m) => m.type === 'history/list'));
  await h.send({
    type: 'history/list',
    activeId: 'c1',
    entries: [{ id: 'c9', title: 'Parsing JSON', updatedAt: 5, messageCount: 2 }],
  });
  await h.page.getByRole('button', { name: 'Rename: Parsing JSON' }).click();
  const name = h.page.getByRole('textbox', { name: 'New name' });
  await name.fill('JSON notes');
  await name.press('Enter');
  assert.ok(
    (await h.posted()).some(
      (m) => m.type === 'history/rename' && m.title === 'JSON notes' && m.conversationId === 'c9',
    ),
  );
  await h.send({
    type: 'history/list',
    activeId: 'c1',
    entries: [{ id: 'c9', title: 'JSON notes', updatedAt: 5, messageCount: 2 }],
  });
  await h.page.getByRole('button', { name: 'Delete: JSON notes' }).click();
  assert.equal((await h.posted()).filter((m) => m.type === 'history/delete').length, 0);
  await h.page.getByRole('button', { name: 'Delete "JSON notes"?' }).click();
  assert.ok((await h.posted()).some((m) => m.type === 'history/delete' && m.conversationId === 'c9'));
  await h.page.context().close();
});

/** Pastes or drops files into the page (string script: the node type-check has no DOM lib). */
function fileEvent(kind: 'paste' | 'drop', files: Array<{ name: string; type: string; bytes: number }>): string {
  return `(() => {
    const dt = new DataTransfer();
    for (const f of ${JSON.stringify(files)}) dt.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: f.type }));
    const target = document.querySelector('textarea[aria-label="Message"]');
    const ev = ${kind === 'paste' ? "new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true })" : "new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true })"};
    target.dispatchEvent(ev);
  })()`;
}

void test('pasted and dropped images become thumbnails sent as data URLs; too large or non-images get a clear message', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot({ maxImageBytes: 1000 }));
  await h.page.evaluate(fileEvent('paste', [{ name: 'small.png', type: 'image/png', bytes: 300 }]));
  await h.page.evaluate(
    fileEvent('drop', [
      { name: 'big.png', type: 'image/png', bytes: 5000 },
      { name: 'notes.txt', type: 'text/plain', bytes: 10 },
      { name: 'b.jpg', type: 'image/jpeg', bytes: 20 },
    ]),
  );
  await h.page.getByRole('img', { name: 'Attached image: b.jpg' }).waitFor();
  assert.equal(await h.page.locator('.attachments img.thumb').count(), 2);
  const notes = await h.page.locator('.composer-notes').innerText();
  assert.match(notes, /big\.png is 0\.0 MB; the limit is 0\.0 MB \(setting gatewayStudio\.chat\.maxImageMegabytes\)/);
  assert.match(notes, /notes\.txt is not an image/);
  await h.page.getByRole('button', { name: 'Remove attachment: small.png' }).click();
  await h.page.locator('textarea[aria-label="Message"]').fill('what is this');
  await h.page.getByRole('button', { name: 'Send', exact: true }).click();
  const sent = (await h.posted()).find((m) => m.type === 'chat/send') as
    { images: Array<{ name: string; dataUrl: string }> } | undefined;
  assert.deepEqual(
    sent?.images.map((i) => i.name),
    ['b.jpg'],
  );
  assert.match(sent?.images[0]?.dataUrl ?? '', /^data:image\/jpeg;base64,A{20,}/);
  assert.equal(await h.page.locator('.attachments img.thumb').count(), 0, 'the composer is cleared after sending');
  await h.page.context().close();
});

void test('editor context arrives as a chip with a prompt, and is sent with the message', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.send({
    type: 'chat/context',
    context: { fileName: 'src/app.ts', language: 'typescript', text: 'let a = 1;', startLine: 9, endLine: 11 },
    prompt: 'Explain this code.',
  });
  assert.match(await h.page.locator('.attachments .chip').innerText(), /app\.ts:10-12/);
  assert.equal(await h.page.locator('textarea[aria-label="Message"]').inputValue(), 'Explain this code.');
  await h.page.locator('textarea[aria-label="Message"]').press('Enter');
  const sent = (await h.posted()).find((m) => m.type === 'chat/send') as
    { contexts: Array<{ fileName: string }> } | undefined;
  assert.equal(sent?.contexts[0]?.fileName, 'src/app.ts');
  await h.page.context().close();
});

void test('conversation settings post validated overrides; empty fields fall back to the settings', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.page.getByRole('button', { name: 'Conversation settings' }).click();
  const panel = h.page.getByRole('region', { name: 'Conversation settings' });
  await panel.getByLabel('System prompt').fill('Answer in French.');
  await panel.getByLabel('Temperature').fill('0.7');
  await panel.getByLabel('Response format').selectOption('json_object');
  await panel.getByLabel('Stop sequences (one per line, up to 4)').fill('END\nSTOP');
  await panel.getByRole('button', { name: 'Apply' }).click();
  const set = (await h.posted()).find((m) => m.type === 'chat/setParams');
  assert.deepEqual(set, {
    type: 'chat/setParams',
    params: { temperature: 0.7, stop: ['END', 'STOP'], response_format: 'json_object' },
    systemPrompt: 'Answer in French.',
  });
  await panel.getByRole('button', { name: 'Use defaults' }).click();
  assert.deepEqual((await h.posted()).filter((m) => m.type === 'chat/setParams').at(-1), {
    type: 'chat/setParams',
    params: {},
    systemPrompt: null,
  });
  await h.page.context().close();
});

void test('a json_object answer is shown as formatted JSON, reasoning stays collapsed above the answer', async () => {
  const h = await openHarness(browser());
  const conv = {
    id: 'c1',
    title: '',
    createdAt: 1,
    updatedAt: 1,
    model: '',
    params: { response_format: 'json_object' as const },
    messages: [],
  };
  await h.send(snapshot({ conversation: conv }));
  await h.send({ type: 'chat/message', requestId: 'r1', message: answer('a1') });
  await h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a1', reasoning: 'Thinking about keys.' });
  await h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a1', content: '{"a":1,"b":[true]}' });
  await h.send({
    type: 'chat/done',
    requestId: 'r1',
    message: answer('a1', { content: '{"a":1,"b":[true]}', reasoning: 'Thinking about keys.', status: 'done' }),
  });
  assert.equal(await h.page.locator('.md pre code').innerText(), '{\n  "a": 1,\n  "b": [\n    true\n  ]\n}');
  const details = h.page.locator('details.reasoning');
  assert.equal(await details.getAttribute('open'), null);
  assert.equal(await details.isVisible(), true);
  await details.locator('summary').click();
  assert.match(await shownText(details, /Thinking about keys\./), /Thinking about keys\./);
  await h.page.context().close();
});

void test('the tools menu toggles tools and picks tool_choice', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.send({
    type: 'tools/list',
    choice: 'auto',
    tools: [
      { name: 'read_file', description: 'Read a file', readOnly: true, enabled: true, trusted: false },
      { name: 'run_command', description: 'Run a command', readOnly: false, enabled: false, trusted: false },
    ],
  });
  await h.page.getByRole('button', { name: 'Tools' }).click();
  await h.page.getByRole('checkbox', { name: 'Enabled: run_command' }).check();
  await h.page.getByRole('checkbox', { name: 'Always allow (trusted): read_file' }).check();
  await h.page.getByRole('combobox', { name: 'Tool choice' }).selectOption('tool:read_file');
  const posted = (await h.posted()).filter((m) => String(m.type).startsWith('tools/'));
  assert.deepEqual(posted, [
    { type: 'tools/setEnabled', name: 'run_command', enabled: true },
    { type: 'tools/setTrusted', name: 'read_file', trusted: true },
    { type: 'tools/setChoice', choice: { name: 'read_file' } },
  ]);
  await h.page.context().close();
});

void test('a page reloaded mid-answer picks the stream up from the snapshot: partial text, Stop, then further deltas', async () => {
  const h = await openHarness(browser());
  await h.send(
    snapshot({
      busyRequestId: 'r7',
      conversation: {
        id: 'c1',
        title: 't',
        createdAt: 1,
        updatedAt: 1,
        model: '',
        params: {},
        messages: [
          { id: 'u1', role: 'user', text: 'tell me', images: [], contexts: [], createdAt: 1 },
          answer('a7', { content: 'First part.\n\nSecond' }),
        ],
      },
    }),
  );
  assert.equal(await h.page.getByRole('button', { name: 'Stop' }).isVisible(), true);
  await h.send({ type: 'chat/delta', requestId: 'r7', messageId: 'a7', content: ' part.' });
  await h.send({
    type: 'chat/done',
    requestId: 'r7',
    message: answer('a7', { content: 'First part.\n\nSecond part.', status: 'done' }),
  });
  assert.equal(
    (await h.page.locator('[data-message-id="a7"] .md').innerText()).replace(/\n+/g, '|'),
    'First part.|Second part.',
  );
  assert.equal(await h.page.getByRole('button', { name: 'Send', exact: true }).isVisible(), true);
  await h.page.context().close();
});

void test('an open code block grows by appending text (no re-render) and is highlighted once closed', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.send({ type: 'chat/message', requestId: 'r1', message: answer('a1') });
  await h.send({
    type: 'chat/delta',
    requestId: 'r1',
    messageId: 'a1',
    content: 'Here is the file:\n```python\ndef a():\n',
  });
  await h.page.evaluate(() => {
    const g = globalThis as unknown as PageGlobal;
    g.__first = g.document.querySelector('.md-tail pre code');
  });
  for (let i = 0; i < 50; i++)
    await h.page.evaluate((m) => (globalThis as unknown as PageGlobal).postMessage(m, '*'), {
      type: 'chat/delta',
      requestId: 'r1',
      messageId: 'a1',
      content: `    x${i} = ${i}\n`,
    } satisfies HostMessage);
  await h.frames();
  const sameNode = await h.page.evaluate(() => {
    const g = globalThis as unknown as PageGlobal;
    const now = g.document.querySelector('.md-tail pre code');
    return now !== null && now === g.__first;
  });
  assert.equal(sameNode, true, 'the open block is the same element, only appended to');
  assert.match(await h.page.locator('.md-tail pre code').innerText(), /x49 = 49/);
  assert.equal(await h.page.locator('.md-frozen .md-block').count(), 1, 'the paragraph before the fence is finished');
  await h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a1', content: '```\nAfter.' });
  // The highlighter is a chunk of its own: on a loaded machine it may colour the block a moment later.
  await h.page
    .locator('.md-frozen pre code .hljs-keyword')
    .first()
    .waitFor({ timeout: 10_000 })
    .catch(() => undefined);
  assert.ok((await h.page.locator('.md-frozen pre code .hljs-keyword').count()) > 0, 'closed block highlighted');
  assert.equal((await h.page.locator('.md-tail').innerText()).trim(), 'After.');
  await h.page.context().close();
});

void test('a huge streamed code block is kept as plain text when it closes, with exactly its code and working buttons', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.send({ type: 'chat/message', requestId: 'r1', message: answer('a1') });
  const lines = Array.from({ length: 2500 }, (_, i) => `line_${i} = compute(${i}, "value")`);
  const code = lines.join('\n') + '\n';
  await h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a1', content: '```python\n' });
  for (let i = 0; i < code.length; i += 7000)
    await h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a1', content: code.slice(i, i + 7000) });
  // The closing fence arrives in two pieces, so part of it is on screen for a frame.
  await h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a1', content: '``' });
  await h.send({ type: 'chat/delta', requestId: 'r1', messageId: 'a1', content: '`\nThat is all.' });
  const block = h.page.locator('.md-frozen [role="group"][aria-label="Code block"]');
  await block.getByRole('button', { name: 'Copy code' }).click();
  const copied = (await h.posted()).find((m) => m.type === 'code/copy');
  assert.equal(copied?.code, code);
  assert.equal((await h.page.locator('.md-tail').innerText()).trim(), 'That is all.');
  await h.page.context().close();
});

void test('Edit and resend replaces the last message; switching to another conversation or a new chat ends the edit, so Send does not overwrite that one', async () => {
  const h = await openHarness(browser());
  const withTurn = (id: string, text: string): HostMessage => ({
    type: 'chat/conversation',
    defaults: (snapshot() as Extract<HostMessage, { type: 'chat/snapshot' }>).defaults,
    defaultModel: 'gw-chat',
    defaultSystemPrompt: '',
    conversation: {
      id,
      title: text,
      createdAt: 1,
      updatedAt: 1,
      model: '',
      params: {},
      messages: [
        { id: `u-${id}`, role: 'user', text, images: [], contexts: [], createdAt: 1 },
        answer(`a-${id}`, { content: 'ok', status: 'done' }),
      ],
    },
  });
  await h.send(snapshot());
  await h.send(withTurn('c1', 'first question'));
  await h.page.getByRole('button', { name: 'Edit and resend' }).click();
  const box = h.page.locator('textarea[aria-label="Message"]');
  assert.equal(await box.inputValue(), 'first question');
  await box.fill('first question, reworded');
  await box.press('Enter');
  const edit = (await h.posted()).find((m) => m.type === 'chat/editResend');
  assert.equal(edit?.text, 'first question, reworded');
  await h.send({ type: 'chat/done', requestId: String(edit?.requestId) });

  // Start an edit, then open another conversation from the history: the edit is over.
  await h.page.getByRole('button', { name: 'Edit and resend' }).click();
  await h.send(withTurn('c2', 'another conversation'));
  assert.equal(await h.page.getByText('Editing your last message').isVisible(), false);
  await box.fill('a new question for c2');
  await box.press('Enter');
  const posted = await h.posted();
  assert.equal(posted.filter((m) => m.type === 'chat/editResend').length, 1, 'no second edit was sent');
  const sent = posted.find((m) => m.type === 'chat/send' && m.text === 'a new question for c2');
  assert.ok(sent);
  await h.send({ type: 'chat/done', requestId: String(sent.requestId) });

  // The same for New Chat: its empty conversation has no message to replace.
  await h.send(withTurn('c3', 'third conversation'));
  await h.page.getByRole('button', { name: 'Edit and resend' }).click();
  await h.send({
    ...withTurn('c4', ''),
    conversation: { id: 'c4', title: '', createdAt: 1, updatedAt: 1, model: '', params: {}, messages: [] },
  } as HostMessage);
  assert.equal(await h.page.getByText('Editing your last message').isVisible(), false);
  await box.press('Enter');
  assert.ok(
    (await h.posted()).some((m) => m.type === 'chat/send' && m.text === 'third conversation'),
    'the text is sent as a new message, not dropped',
  );
  await h.page.context().close();
});

void test('a message the host refuses comes back into the composer with its image, and the panel is not left busy', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  const box = h.page.locator('textarea[aria-label="Message"]');
  await h.page.evaluate(fileEvent('paste', [{ name: 'shot.png', type: 'image/png', bytes: 64 }]));
  await box.fill('a long question worth keeping');
  await box.press('Enter');
  const sent = (await h.posted()).find((m) => m.type === 'chat/send');
  assert.equal(sent?.text, 'a long question worth keeping');
  assert.equal(await box.inputValue(), '');
  await h.send({
    type: 'chat/error',
    requestId: String(sent?.requestId),
    error: { title: 'Message not sent', detail: 'images Too big', actions: [] },
  });
  assert.equal(await box.inputValue(), 'a long question worth keeping');
  assert.equal(await h.page.locator('.composer .attachments img[alt="Attached image: shot.png"]').count(), 1);
  assert.equal(await h.page.getByRole('button', { name: 'Send', exact: true }).isVisible(), true);
  assert.match(await h.page.locator('.standalone-error').innerText(), /Message not sent/);

  // An accepted message is not put back when its answer ends.
  await box.press('Enter');
  const again = (await h.posted()).filter((m) => m.type === 'chat/send').at(-1);
  const requestId = String(again?.requestId);
  await h.send({
    type: 'chat/message',
    requestId,
    message: { id: 'u1', role: 'user', text: 'a long question worth keeping', images: [], contexts: [], createdAt: 1 },
  });
  await h.send({ type: 'chat/busy', requestId });
  await h.send({ type: 'chat/done', requestId });
  assert.equal(await box.inputValue(), '');
  assert.equal(await h.page.locator('.composer .attachments img').count(), 0, 'the composer stays empty');
  await h.page.context().close();
});
