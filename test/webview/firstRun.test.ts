import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openHarness, snapshot, useBrowser } from './harness';

/*
 * The first run (issue 43): with no key and a gateway that wants one, the empty chat says what to
 * do next with the button that does it, and shows no error for the list request that carried no
 * key; once the key is set the usual empty line is back.
 */

const browser = useBrowser();

void test('no key: the empty chat offers Set API Key (which runs the command), no 401 note; a key brings the usual line back', async () => {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.send({ type: 'models/list', models: [], loading: false, noCredentials: true });
  const empty = h.page.locator('.log .empty');
  const button = empty.locator('button', { hasText: 'Set API Key' });
  await button.waitFor({ state: 'visible' });
  assert.match(await empty.innerText(), /Set your gateway API key to start\./);
  assert.equal((await h.page.locator('.composer-notes').innerText()).trim(), '', 'no error note');
  await h.clearPosted();
  await button.click();
  assert.deepEqual(
    (await h.posted()).filter((m) => m.type === 'error/action'),
    [{ type: 'error/action', action: 'setApiKey' }],
  );
  await h.send({
    type: 'models/list',
    models: [{ id: 'gw-chat', capabilities: [], supportsImages: false }],
    loading: false,
  });
  await empty.filter({ hasText: 'Start a conversation' }).waitFor({ state: 'visible' });
  assert.equal(await button.count(), 0);
  assert.deepEqual(
    await h.page
      .locator('datalist#model-list option')
      .evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value)),
    ['gw-chat'],
  );
  await h.page.context().close();
});
