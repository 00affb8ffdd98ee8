import assert from 'node:assert/strict';
import { test } from 'node:test';
import { route, type Routes } from '../../../../../src/chat/conversation/core/routes';
import type { HostMessage } from '../../../../../src/shared/protocol';

void test("route hands a message to its type's handler, whose reply goes back through the given reply only", async () => {
  const replies: HostMessage[] = [];
  const seen: string[] = [];
  const table: Routes<'chat/cancel' | 'history/list'> = {
    'chat/cancel': (m) => void seen.push(`cancel ${m.requestId}`),
    'history/list': (_m, reply) => reply({ type: 'history/list', entries: [], activeId: 'c1' }),
  };
  await route(table, { type: 'chat/cancel', requestId: 'r1' }, (m) => replies.push(m));
  await route(table, { type: 'history/list' }, (m) => replies.push(m));
  assert.deepEqual(seen, ['cancel r1']);
  assert.deepEqual(replies, [{ type: 'history/list', entries: [], activeId: 'c1' }]);
});
