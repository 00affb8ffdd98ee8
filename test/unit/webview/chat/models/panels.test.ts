// The panels model (webview/chat/models/panels.ts): one panel at a time, opened once its code is here.
import '../../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPanelsModel } from '../../../../../webview/chat/models/panels';
import { recordPosts, settle } from '../../nodePage';

void test('a panel waits for its code, toggles, and the history panel asks for the list', async () => {
  const posted = recordPosts();
  let loaded = false;
  let release = () => {};
  const code = new Promise<void>((r) => (release = r));
  const panels = createPanelsModel({ loaded: () => loaded, load: () => code });
  panels.toggle('settings');
  panels.toggle('history');
  assert.equal(panels.open.value, undefined, 'nothing opens before its code is here');
  loaded = true;
  release();
  await code;
  await Promise.resolve();
  assert.equal(panels.open.value, 'history', 'the last one asked for opens');
  assert.deepEqual(posted, [{ type: 'history/list' }]);
  panels.toggle('tools');
  assert.equal(panels.open.value, 'tools');
  assert.equal(panels.close(), true);
  assert.equal(panels.open.value, undefined);
  assert.equal(panels.close(), false);
  settle();
});
