import * as assert from 'node:assert/strict';
import type { Journey } from './journey';
import { chatSettings, openChat, UI_TIMEOUT } from './workbench';

// A real 1x1 PNG, so the video request carries a decodable image.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

interface ChatBody {
  messages: { role: string; content: unknown }[];
}

/** The text of the last user message of the last chat request the gateway received. */
function lastUserText(requests: { route: string; body: unknown }[]): string {
  const body = requests.filter((r) => r.route === '/v1/chat/completions').at(-1)?.body as ChatBody | undefined;
  const content = body?.messages.filter((m) => m.role === 'user').at(-1)?.content;
  // Without the editor state the client adds after the conversation (issue 39: a cacheable prefix).
  if (typeof content === 'string') return content.split('\n\n# Editor state')[0]!;
  return Array.isArray(content)
    ? (content as { type: string; text?: string }[])
        .filter((p) => p.type === 'text' && !p.text?.startsWith('# Editor state'))
        .map((p) => p.text)
        .join('\n')
    : '';
}

export const journeys: Journey[] = [
  {
    name: 'mentions: typing @ and picking a file with the keyboard puts a chip in the message, and the gateway receives the file',
    share: 'tools',
    settings: chatSettings,
    files: {
      'docs/plan.md': 'Ship the mentions feature on Friday.\n',
      'docs/other.md': 'Not this one.\n',
    },
    async run({ wb, gw, shot }) {
      await wb.setApiKey(gw.keys.valid);
      const chat = await openChat(wb);
      const box = chat.locator('textarea[aria-label="Message"]');
      await box.click();
      await box.pressSequentially('summarise @plan');
      const listbox = chat.locator('[role="listbox"]');
      await listbox.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const first = chat.locator('[role="option"][aria-selected="true"]');
      await first.filter({ hasText: 'docs/plan.md' }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await shot('e2e-mentions-picker');
      await box.press('Enter');
      const chip = chat.locator('.composer .mention-chip', { hasText: 'docs/plan.md' });
      await chip.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.equal(await box.inputValue(), 'summarise ');
      await box.pressSequentially('please');
      await box.press('Enter');
      // The sent message shows the chip; the echo answer shows what the gateway received.
      await chat
        .locator('article.msg.user .mention-chip', { hasText: 'docs/plan.md' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const answer = chat.locator('.msg.assistant .md', { hasText: 'Ship the mentions feature on Friday.' }).last();
      await answer.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const sent = lastUserText(gw.requests());
      assert.match(
        sent,
        /^\[Attached file: docs\/plan\.md \(path: docs\/plan\.md\)\]\n```markdown\nShip the mentions feature on Friday\.\n```\n\nsummarise please$/,
      );
      assert.ok(!sent.includes('Not this one'), 'only the picked file was sent');
      await shot('e2e-mentions-sent');
    },
  },
  {
    name: 'mentions: Add File to Chat in the explorer context menu puts the file as a chip in the open chat',
    share: 'tools',
    settings: chatSettings,
    files: { 'notes/todo.md': '- write the tests\n' },
    async run({ wb, gw, page }) {
      await wb.setApiKey(gw.keys.valid);
      const chat = await openChat(wb);
      await wb.runCommand('View: Show Explorer');
      const folder = page.locator('.explorer-folders-view .monaco-list-row[aria-label^="notes"]').first();
      await folder.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await folder.click();
      const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'todo.md' }).first();
      await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await row.click({ button: 'right' });
      const item = page.locator('.monaco-menu .action-menu-item', { hasText: 'Add File to Chat' }).first();
      await item.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await item.hover();
      await item.click();
      // A menu still settling can take the click as a hover only (seen once on a loaded machine);
      // the hovered item is focused, and Enter runs it as a keyboard user would.
      if (await item.isVisible()) await page.keyboard.press('Enter');
      await chat
        .locator('.composer .mention-chip', { hasText: 'notes/todo.md' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    },
  },
  {
    name: 'mentions: "Make a 4-second clip of this diagram" with a mentioned image starts a video task whose request carries the image',
    settings: (gw) => ({
      ...chatSettings(gw),
      'gatewayStudio.videoBaseUrl': gw.videoUrl,
      'gatewayStudio.video.pollIntervalSeconds': 0.3,
    }),
    files: { 'diagrams/flow.png': PNG },
    async run({ wb, gw, shot }) {
      await wb.setApiKey(gw.keys.valid);
      const chat = await openChat(wb);
      const box = chat.locator('textarea[aria-label="Message"]');
      await box.click();
      await box.pressSequentially('@flow');
      await chat
        .locator('[role="option"][aria-selected="true"]', { hasText: 'diagrams/flow.png' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await box.press('Tab');
      await chat
        .locator('.composer .mention-chip', { hasText: 'diagrams/flow.png' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      // The scripted model does what a real one does with the attachment's path: passes it on.
      const script = JSON.stringify([
        {
          calls: [
            {
              name: 'generate_video',
              arguments: {
                prompt: 'the flow diagram, boxes lighting up one by one',
                model: 'vendor-image-video',
                seconds: 4,
                images: ['diagrams/flow.png'],
              },
            },
          ],
        },
      ]);
      // The gateway serves every journey of the run: only this journey's creation POSTs count
      // (counts are kept whole; the request log keeps the last 2,000).
      const CREATE = 'POST /v1/videos/generations';
      const createdBefore = gw.counts()[CREATE] ?? 0;
      await box.fill(`Make a 4-second clip of this diagram #tools ${script}`);
      await box.press('Enter');
      const card = chat.locator('section.toolcard').first();
      await card.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      // What the model saw: the image's workspace path (gw-chat takes no images, so it says so).
      const seen = lastUserText(gw.requests());
      assert.match(seen, /\[Attached image: diagrams\/flow\.png \(path: diagrams\/flow\.png\)\]/);
      assert.match(seen, /Its workspace path is diagrams\/flow\.png/);
      assert.match(seen, /The image was not sent: the model gw-chat does not take images\./);
      await card.locator('button', { hasText: /^\s*Allow\s*$/ }).click();
      await card.locator('.tc-video').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.equal((gw.counts()[CREATE] ?? 0) - createdBefore, 1, 'exactly one creation POST');
      const created = gw.requests().filter((r) => r.route === '/v1/videos/generations');
      const body = created.at(-1)!.body as { image_urls?: string[]; duration?: number; seconds?: number };
      assert.deepEqual(body.image_urls, [`data:image/png;base64,${PNG.toString('base64')}`]);
      await card.locator('.tc-video.video-saved').waitFor({ state: 'visible', timeout: 120_000 });
      await shot('e2e-mentions-video');
    },
  },
];
