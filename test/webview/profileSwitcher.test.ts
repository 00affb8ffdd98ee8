import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HostMessage } from '../../src/shared/protocol';
import { axeViolations, describe } from './axe';
import { openHarness, snapshot, type Harness, useBrowser } from './harness';

/*
 * The gateway profile switcher in the chat header (issue 22), in the real bundle. The host's side
 * is played here: the page only asks (`profiles/switch`) and shows the list the host sends back.
 */

const browser = useBrowser();

const list = (active: string, ids = ['default', 'work']): HostMessage => ({
  type: 'profiles/list',
  profiles: ids.map((id) => ({ id, name: id === 'default' ? 'Default' : `Relay ${id}` })),
  active,
});

async function open(first: HostMessage): Promise<Harness> {
  const h = await openHarness(browser());
  await h.send(snapshot());
  await h.send(first);
  await h.frames();
  return h;
}

const switches = async (h: Harness) => (await h.posted()).filter((m) => m.type === 'profiles/switch').map((m) => m.id);

void test('with one profile the header has no switcher; a second one shows it beside the model box', async () => {
  const h = await open(list('default', ['default']));
  assert.equal(await h.page.locator('#profile').count(), 0, 'nothing to switch: nothing shown');
  await h.send(list('default'));
  await h.frames();
  const select = h.page.getByRole('combobox', { name: 'Gateway profile' });
  assert.equal(await select.count(), 1);
  // In the toolbar, just before the model box.
  const order = await h.page.evaluate(
    '[...document.querySelectorAll(".toolbar #profile, .toolbar #model")].map((e) => e.id)',
  );
  assert.deepEqual(order, ['profile', 'model']);
  assert.deepEqual(await select.locator('option').allInnerTexts(), ['Default', 'Relay work']);
  assert.equal(await select.inputValue(), 'default');
  assert.equal(await select.getAttribute('title'), 'Gateway profile: Default');
  await h.page.context().close();
});

void test('picking a profile asks the host and shows the host answer, not the pick', async () => {
  const h = await open(list('default'));
  const select = h.page.locator('#profile');
  await select.selectOption('work');
  await h.frames();
  assert.deepEqual(await switches(h), ['work'], 'one request, with the id picked');
  // The host refused (say the profile was removed meanwhile) and sent the list as it is.
  await h.send(list('default'));
  await h.frames();
  assert.equal(await select.inputValue(), 'default', 'the page shows what the host says is active');
  // The host switched (from the status bar or the command, or this pick): the page follows.
  await h.send(list('work'));
  await h.frames();
  assert.equal(await select.inputValue(), 'work');
  assert.equal(await select.getAttribute('title'), 'Gateway profile: Relay work');
  await h.page.context().close();
});

void test('the keyboard switches as in any select: focus, arrow down; picking the active one asks nothing', async () => {
  const h = await open(list('default', ['default', 'work', 'home']));
  const select = h.page.locator('#profile');
  await select.focus();
  await h.page.keyboard.press('ArrowDown');
  await h.frames();
  assert.deepEqual(await switches(h), ['work']);
  await h.send(list('work', ['default', 'work', 'home']));
  await h.frames();
  await select.selectOption('work');
  await h.frames();
  assert.deepEqual(await switches(h), ['work'], 'the active profile again is no request');
  const serious = (await axeViolations(h.page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious, [], describe(serious));
  await h.page.context().close();
});

void test('a profile name from settings is shown as text, never as markup', async () => {
  const h = await open({
    type: 'profiles/list',
    profiles: [
      { id: 'default', name: 'Default' },
      { id: 'x', name: '<img src=x onerror="window.__xss()">' },
    ],
    active: 'x',
  });
  const select = h.page.locator('#profile');
  assert.equal(await select.locator('option').nth(1).innerText(), '<img src=x onerror="window.__xss()">');
  assert.equal(await h.xssCount(), 0);
  assert.deepEqual(h.foreignRequests, []);
  await h.page.context().close();
});
