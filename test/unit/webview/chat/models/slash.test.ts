// The `/` menu's model (webview/chat/models/slash.ts): a leading `/` opens it and asks the host,
// typing filters, arrows and Enter pick, Escape closes, and a picked row fills `/name `.
import '../../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SlashItem } from '../../../../../src/shared/protocol';
import { createComposerModel } from '../../../../../webview/chat/models/composer';
import { createConversationModel } from '../../../../../webview/chat/models/conversation';
import { createModelListModel } from '../../../../../webview/chat/models/modelList';
import { createSlashModel, slashQuery, type MenuKey } from '../../../../../webview/chat/models/slash';
import { createStringsModel } from '../../../../../webview/chat/models/strings';
import { recordPosts } from '../../nodePage';

const ITEMS: SlashItem[] = [
  { kind: 'prompt', name: 'explain', description: 'Explain the code', argumentHint: '[file]', scope: 'workspace' },
  { kind: 'prompt', name: 'create-react-form', scope: 'user' },
  { kind: 'skill', name: 'webapp-testing', description: 'Playwright tests', scope: 'workspace' },
];

function setUp() {
  const posted = recordPosts();
  const { t } = createStringsModel();
  const conversation = createConversationModel({ t });
  const composer = createComposerModel({ conversation, modelList: createModelListModel({ note: () => undefined }), t });
  return { posted, composer, slash: createSlashModel({ composer }) };
}

function key(k: string, extra: Partial<MenuKey> = {}): MenuKey & { prevented: boolean } {
  const ev = {
    key: k,
    prevented: false,
    preventDefault: () => (ev.prevented = true),
    stopPropagation: () => undefined,
    ...extra,
  };
  return ev;
}

void test('a / at the start up to the caret, without a space, is a command being typed', () => {
  assert.equal(slashQuery('/', 1), '');
  assert.equal(slashQuery('/expl', 5), 'expl');
  assert.equal(slashQuery('/explain this', 13), undefined);
  assert.equal(slashQuery('see /explain', 12), undefined);
  assert.equal(slashQuery('//', 2), undefined);
});

void test('typing / opens the menu once and asks the host; its rows are filtered as you type', () => {
  const { posted, slash } = setUp();
  slash.update('/', 1);
  assert.deepEqual(posted, [{ type: 'slash/list' }]);
  assert.equal(slash.menu.value?.loading, true);
  slash.onHost({ type: 'slash/commands', items: ITEMS });
  assert.deepEqual(
    slash.menu.value?.items.map((i) => i.name),
    ['explain', 'create-react-form', 'webapp-testing'],
  );
  slash.update('/web', 4);
  assert.equal(posted.length, 1, 'asked once per opening');
  assert.deepEqual(
    slash.menu.value?.items.map((i) => i.name),
    ['webapp-testing'],
  );
  slash.update('/zzz', 4);
  assert.deepEqual(slash.menu.value?.items, []);
  slash.update('hello', 5);
  assert.equal(slash.menu.value, undefined, 'no leading /: closed');
});

void test('arrows move, Enter picks (fills `/name `, does not send), Escape closes and keeps the text', () => {
  const { slash, composer } = setUp();
  composer.draft.value = '/';
  slash.update('/', 1);
  slash.onHost({ type: 'slash/commands', items: ITEMS });
  assert.equal(slash.keyDown(key('ArrowDown')), true);
  assert.equal(slash.keyDown(key('ArrowUp')), true);
  slash.keyDown(key('ArrowUp'));
  assert.equal(slash.menu.value?.active, 2, 'wraps around');
  const enter = key('Enter');
  assert.equal(slash.keyDown(enter), true);
  assert.equal(enter.prevented, true);
  assert.equal(composer.draft.value, '/webapp-testing ');
  assert.equal(slash.menu.value, undefined);

  composer.draft.value = '/ex';
  slash.update('/ex', 3);
  slash.onHost({ type: 'slash/commands', items: ITEMS });
  assert.equal(slash.keyDown(key('Escape')), true);
  assert.equal(slash.menu.value, undefined);
  assert.equal(composer.draft.value, '/ex');
  assert.equal(slash.keyDown(key('Enter')), false, "closed: Enter is the composer's again");
});

void test("with no rows Enter is not the menu's (the text is sent as typed); Shift+Enter and an IME never are", () => {
  const { slash } = setUp();
  slash.update('/nope', 5);
  slash.onHost({ type: 'slash/commands', items: ITEMS });
  assert.equal(slash.keyDown(key('Enter')), false);
  slash.update('/ex', 3);
  assert.equal(slash.keyDown(key('Enter', { shiftKey: true })), false);
  assert.equal(slash.keyDown(key('Enter', { isComposing: true })), false);
  slash.onHost({ type: 'slash/commands', items: [] });
  assert.deepEqual(slash.menu.value?.source, []);
});
