// The history model (webview/chat/models/history.ts): the host's list, and the panel's rows starting over.
import '../../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHistoryModel } from '../../../../../webview/chat/models/history';
import { settle } from '../../nodePage';

void test('each list from the host replaces the entries and starts the rows over', () => {
  const h = createHistoryModel();
  const entries = [{ id: 'c1', title: 'First', updatedAt: 1, messageCount: 2 }];
  h.onHost({ type: 'history/list', entries, activeId: 'c1' });
  settle();
  h.onHost({ type: 'history/list', entries: [], activeId: '' });
  settle();
  assert.deepEqual(h.entries.value, []);
  assert.equal(h.version.value, 2);
});
