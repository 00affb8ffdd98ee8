import assert from 'node:assert/strict';
import { test } from 'node:test';
import { historyHostMessages, historyWebviewMessages } from '../../../../src/shared/protocol/history';
import { acceptsEvery, refusal, union } from '../../../support/protocolCheck';

const host = union(historyHostMessages);
const webview = union(historyWebviewMessages);

void test('every history message is accepted in its valid shape', () => {
  acceptsEvery(host, [
    {
      type: 'history/list',
      entries: [{ id: 'c1', title: 'Parser questions', updatedAt: 2, messageCount: 4 }],
      activeId: 'c1',
    },
    { type: 'history/list', entries: [], activeId: '' },
  ]);
  acceptsEvery(webview, [
    { type: 'history/list' },
    { type: 'history/open', conversationId: 'c1' },
    { type: 'history/rename', conversationId: 'c1', title: 'Renamed' },
    { type: 'history/delete', conversationId: 'c1' },
    { type: 'history/export' },
  ]);
});

void test('a rename takes a title of 1 to 200 characters for a named conversation', () => {
  const rename = { type: 'history/rename', conversationId: 'c1', title: 'ok' };
  assert.match(refusal(webview, { ...rename, title: '' }), /^title: Too small.*>=1 characters/);
  assert.match(refusal(webview, { ...rename, title: 't'.repeat(201) }), /^title: Too big.*<=200 characters/);
  assert.match(refusal(webview, { ...rename, title: 7 }), /^title: Invalid input: expected string, received number/);
  assert.equal(
    refusal(webview, { type: 'history/rename', title: 'x' }),
    'conversationId: Invalid input: expected string, received undefined',
  );
  assert.match(
    refusal(webview, { type: 'history/delete', conversationId: 'c'.repeat(201) }),
    /^conversationId: Too big/,
  );
});

void test("a history entry's message count is a whole number and its title a string", () => {
  const list = (entry: object) => ({
    type: 'history/list',
    entries: [{ id: 'c1', title: 'T', updatedAt: 1, messageCount: 2, ...entry }],
    activeId: 'c1',
  });
  assert.match(refusal(host, list({ messageCount: 2.5 })), /^entries\.0\.messageCount: Invalid input: expected int/);
  assert.match(refusal(host, list({ title: null })), /^entries\.0\.title: Invalid input: expected string/);
  assert.match(refusal(host, list({ id: '' })), /^entries\.0\.id: Too small/);
  assert.match(refusal(host, { type: 'history/list', entries: [] }), /^activeId: Invalid input/);
});
