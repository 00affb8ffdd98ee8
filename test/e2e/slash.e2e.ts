// The `/` menu in the real chat panel (issue 37): a prompt file picked from the menu asks its
// `${input:…}` in a VS Code input box and is sent with its own model for that request only, its
// relative link attached; a skill's body reaches the gateway only after `/skill-name`, while
// before it only the skill's name and description are in the system message.
import * as assert from 'node:assert/strict';
import type { HostGateway } from '../host/gateway';
import type { Journey } from './journey';
import { chatSettings, openChat, sendMessage, UI_TIMEOUT } from './workbench';

interface ChatBody {
  model: string;
  messages: { role: string; content: unknown }[];
}

/** The chat requests the gateway received, in order. */
function chatBodies(gw: HostGateway): ChatBody[] {
  return gw
    .requests()
    .filter((r) => r.method === 'POST' && r.route === '/v1/chat/completions')
    .map((r) => r.body as ChatBody);
}

function text(content: unknown): string {
  // Without the editor state the client adds after the conversation (issue 39: a cacheable prefix).
  if (typeof content === 'string') return content.split('\n\n# Editor state')[0]!;
  return Array.isArray(content)
    ? (content as { type: string; text?: string }[])
        .filter((p) => !p.text?.startsWith('# Editor state'))
        .map((p) => p.text ?? '')
        .join('\n')
    : '';
}

async function requests(gw: HostGateway, n: number): Promise<ChatBody[]> {
  const deadline = Date.now() + UI_TIMEOUT;
  for (;;) {
    const b = chatBodies(gw);
    if (b.length >= n) return b;
    if (Date.now() > deadline) throw new Error(`the gateway received ${b.length} chat request(s), expected ${n}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const PROMPT_FILE = `---
description: Greet someone by name
argument-hint: person=Name
model: gw-vision
---
Write a greeting for \${input:person:Ada}, using [the notes](../../docs/notes.md).
`;

const SKILL = `---
name: haiku
description: Answer in a haiku. Use when the user asks for a poem.
---
SKILL-BODY-7731: answer in three lines of five, seven and five syllables.
`;

export const journeys: Journey[] = [
  {
    name: 'slash: the / menu runs a prompt file, asking its ${input:…} variable and answering with its model once',
    share: 'tools',
    settings: chatSettings,
    files: {
      '.github/prompts/greet.prompt.md': PROMPT_FILE,
      'docs/notes.md': 'NOTES-4417: she prefers short greetings.\n',
    },
    async run({ wb, gw, page, shot }) {
      await wb.setApiKey(gw.keys.valid);
      gw.resetCounts();
      const chat = await openChat(wb);
      const box = chat.locator('textarea[aria-label="Message"]');
      await box.click();
      await box.pressSequentially('/gr');
      const row = chat.locator('#slash-menu [role="option"][aria-selected="true"]', { hasText: '/greet' });
      await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.match(await row.innerText(), /Greet someone by name/);
      assert.match(await row.innerText(), /person=Name/);
      await shot('e2e-slash-menu');
      // The README's picture of customizations: a prompt file offered in the / menu.
      if (process.env.GWS_UPDATE_SCREENSHOT) await page.screenshot({ path: 'media/screenshot-slash.png' });
      await box.press('Enter');
      assert.equal(await box.inputValue(), '/greet ', 'Enter picks the row; it does not send');
      await box.press('Enter');
      // One input box for the one distinct input, its placeholder from the file.
      await wb.submitInput('Grace', { prompt: /person/ });
      await chat
        .locator('.msg.assistant .md', { hasText: 'Write a greeting for Grace' })
        .waitFor({ timeout: UI_TIMEOUT });
      const [first] = await requests(gw, 1);
      assert.equal(first?.model, 'gw-vision', "the prompt file's model answers its request");
      const user = text(first?.messages.filter((m) => m.role === 'user').at(-1)?.content);
      assert.match(user, /Write a greeting for Grace, using \[the notes\]/);
      assert.match(user, /NOTES-4417/, 'the linked file is attached like an @-mention');
      await shot('e2e-slash-prompt-sent');

      await chat.locator('button[aria-label="Send"]').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await sendMessage(chat, 'and now as usual');
      await chat.locator('.msg.assistant .md', { hasText: 'Echo: and now as usual' }).waitFor({ timeout: UI_TIMEOUT });
      const [, second] = await requests(gw, 2);
      assert.equal(second?.model, 'gw-chat', 'the next request goes back to the chosen model');
    },
  },
  {
    name: "slash: a skill's body reaches the gateway only after /skill-name; before, only its name and description",
    share: 'tools',
    settings: chatSettings,
    files: { '.github/skills/haiku/SKILL.md': SKILL, '.github/skills/haiku/extra.md': 'EXTRA-FILE-88\n' },
    async run({ wb, gw, shot }) {
      await wb.setApiKey(gw.keys.valid);
      gw.resetCounts();
      const chat = await openChat(wb);
      await sendMessage(chat, 'a plain question');
      await chat.locator('.msg.assistant .md', { hasText: 'Echo: a plain question' }).waitFor({ timeout: UI_TIMEOUT });
      const [plain] = await requests(gw, 1);
      const system = text(plain?.messages[0]?.content);
      assert.match(system, /- haiku: Answer in a haiku\. Use when the user asks for a poem\./);
      assert.ok(!JSON.stringify(plain).includes('SKILL-BODY-7731'), 'the body is not sent before it is invoked');
      assert.ok(!JSON.stringify(plain).includes('EXTRA-FILE-88'));

      await chat.locator('button[aria-label="Send"]').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      const box = chat.locator('textarea[aria-label="Message"]');
      await box.click();
      await box.pressSequentially('/hai');
      await chat
        .locator('#slash-menu [role="option"][aria-selected="true"]', { hasText: '/haiku' })
        .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await box.press('Enter');
      await box.pressSequentially('about rain');
      await box.press('Enter');
      await chat.locator('.msg.assistant .md', { hasText: 'SKILL-BODY-7731' }).waitFor({ timeout: UI_TIMEOUT });
      const [, invoked] = await requests(gw, 2);
      const user = text(invoked?.messages.filter((m) => m.role === 'user').at(-1)?.content);
      assert.match(user, /^Use the skill "haiku" for this request\. Its instructions:\n\nSKILL-BODY-7731/);
      assert.ok(user.endsWith('about rain'), user);
      assert.ok(
        !JSON.stringify(invoked).includes('EXTRA-FILE-88'),
        "the skill's other files are read only on load_skill",
      );
      await shot('e2e-slash-skill-sent');
    },
  },
];
