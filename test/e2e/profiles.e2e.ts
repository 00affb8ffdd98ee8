// Gateway profiles (issue 22) as a user meets them: two gateways, each with its own key and the
// second with a header it requires, and default chat and video models of its own; switched in the
// chat's header, the chat follows with that profile's model; a video task started on one profile
// finishes with that profile's key after a switch to the other and after a window reload.
import * as assert from 'node:assert/strict';
import type { Journey } from './journey';
import { generateWithWizard } from './video.e2e';
import type { FrameLocator } from 'playwright-core';
import { openChat, sendMessage, UI_TIMEOUT, type Workbench } from './workbench';
import type { Gateway } from '../gateway/server';

/** Switch Gateway Profile from the palette, picking `name`; waits for the status bar to say it. */
export async function switchTo(wb: Workbench, name: string): Promise<void> {
  // Right after the video wizard the list was once closed under the click (a loaded run): the
  // whole step is tried again then. A pick that was not clicked switched nothing.
  for (let attempt = 1; ; attempt++) {
    try {
      await wb.runCommand('Gateway Studio: Switch Gateway Profile');
      await wb.pick(name, 15_000);
      break;
    } catch (e) {
      if (attempt >= 3) throw e;
      await wb.page.keyboard.press('Escape');
    }
  }
  await wb
    .statusItem('gatewayStudio.profile')
    .filter({ hasText: name })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
}

/**
 * Switches in the chat's header, as a user does: the profile select beside the model box. The
 * host switches (the status bar says it) and the page then shows the host's answer.
 */
async function switchInChat(wb: Workbench, chat: FrameLocator, name: string, id: string): Promise<void> {
  const select = chat.getByRole('combobox', { name: 'Gateway profile' });
  await select.selectOption({ label: name });
  await wb
    .statusItem('gatewayStudio.profile')
    .filter({ hasText: name })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await until('the header to show the host answer', async () =>
    (await select.inputValue()) === id ? true : undefined,
  );
}

/** The model box's value, once it is `model` (the conversation's model as the host sent it). */
async function modelBoxShows(chat: FrameLocator, model: string): Promise<void> {
  const box = chat.locator('#model');
  await until(`the model box to show ${model}`, async () => ((await box.inputValue()) === model ? true : undefined));
}

async function until<T>(what: string, f: () => T | undefined | Promise<T | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const chats = (g: Gateway) => g.requests().filter((r) => r.route === '/v1/chat/completions');

export const journeys: Journey[] = [
  {
    name: "profiles: two gateways switched in the chat, each request with its own key and header; a video task finishes on its profile's key after a switch and a reload",
    settings: (gw) => ({
      'gatewayStudio.baseUrl': gw.url,
      'gatewayStudio.videoBaseUrl': gw.videoUrl,
      'gatewayStudio.chatModel': 'gw-chat',
      'gatewayStudio.video.pollIntervalSeconds': 0.3,
      'gatewayStudio.profiles': [
        {
          id: 'relay',
          name: 'Relay',
          baseUrl: gw.second.url,
          videoBaseUrl: gw.second.videoUrl,
          // Models only the relay has or that Default does not use: each profile's own defaults.
          chatModel: 'relay-chat',
          videoModel: 'vendor-video-1.5',
          headers: { [gw.second.requiredHeader!.name]: gw.second.requiredHeader!.value },
        },
      ],
    }),
    async run({ wb, gw, page, shot }) {
      const relay = gw.second;
      const header = relay.requiredHeader!.name;
      // One key per profile, each through Set API Key while that profile is active.
      await wb.setApiKey(gw.keys.valid);
      await switchTo(wb, 'Relay');
      await wb.setApiKey(relay.keys.valid);
      await switchTo(wb, 'Default');

      const chat = await openChat(wb);
      const select = chat.getByRole('combobox', { name: 'Gateway profile' });
      await select.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      assert.equal(await select.inputValue(), 'default');
      await modelBoxShows(chat, 'gw-chat');
      await sendMessage(chat, 'hello from the default gateway');
      await until('the first answer', () => (chats(gw).length > 0 ? true : undefined));
      await chat.locator('.msg.assistant').nth(0).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      // Switched in the chat: the conversation goes on with the relay and the relay's own model.
      await switchInChat(wb, chat, 'Relay', 'relay');
      await modelBoxShows(chat, 'relay-chat');
      await sendMessage(chat, 'hello from the relay');
      await until('the relay answer', () => (chats(relay).length > 0 ? true : undefined));
      await chat.locator('.msg.assistant').nth(1).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      for (const r of chats(gw)) {
        assert.equal(r.auth, 'valid');
        assert.equal(r.headers[header], undefined, "the relay's header went to the default gateway");
      }
      for (const r of chats(relay)) {
        assert.equal(r.auth, 'valid', 'the relay saw another key than its own');
        assert.equal(r.headers[header], relay.requiredHeader!.value);
      }
      assert.equal(chats(gw).length, 1);
      assert.equal(chats(relay).length, 1);
      assert.equal((chats(gw)[0]!.body as { model?: string }).model, 'gw-chat');
      assert.equal((chats(relay)[0]!.body as { model?: string }).model, 'relay-chat', "the relay's default model");
      await shot('profiles-chat');

      // A video on the relay that stays in progress until the journey completes it.
      await generateWithWizard(wb, 'a lantern on a pier #never');
      const created = await until('the relay creating the task', () =>
        relay.requests().find((r) => r.method === 'POST' && r.route.startsWith('/v1/video')),
      );
      assert.equal((created.body as { model?: string }).model, 'vendor-image-video', 'the model picked in the wizard');
      const polls = () => relay.requests().filter((r) => r.route === '/v1/videos/:id');
      const id = await until('the relay polling the task', () => polls()[0]?.path.split('/').pop());
      // Switched back from the palette: the chat's header follows the host.
      await switchTo(wb, 'Default');
      await until('the header to follow the palette', async () =>
        (await select.inputValue()) === 'default' ? true : undefined,
      );
      await wb.reloadWindow();
      const before = polls().length;
      await until('polling again after the reload', () => (polls().length > before ? true : undefined));
      relay.completeVideo(id);
      const item = wb.statusItem('gatewayStudio.videoStatus');
      await item.filter({ hasText: /Video saved/ }).waitFor({ state: 'visible', timeout: 120_000 });
      const task = relay.requests().filter((r) => r.route.startsWith('/v1/video'));
      assert.ok(
        task.some((r) => r.route === '/v1/videos/:id/content'),
        'downloaded from the relay',
      );
      for (const r of task) {
        assert.equal(r.auth, 'valid', `${r.method} ${r.path} without the relay's key`);
        assert.equal(r.headers[header], relay.requiredHeader!.value);
      }
      assert.deepEqual(
        gw.requests().filter((r) => r.route.startsWith('/v1/video')),
        [],
        'the task went to the default gateway after the switch',
      );
      await page.waitForTimeout(200);
    },
  },
];
