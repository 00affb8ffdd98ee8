// The router (webview/chat/models/routes.ts): a host message goes to the handler of its namespace.
import '../../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HostMessage } from '../../../../../src/shared/protocol';
import { route, type HostRoutes } from '../../../../../webview/chat/models/routes';

void test('each message reaches its namespace’s handler; an unknown namespace reaches none', () => {
  const seen: string[] = [];
  // Two namespaces only: a message of any other has no handler and is dropped.
  const routes = {
    history: (m: HostMessage) => seen.push(`history <- ${m.type}`),
    profiles: (m: HostMessage) => seen.push(`profiles <- ${m.type}`),
  } as unknown as HostRoutes;
  route(routes, { type: 'history/list', entries: [], activeId: '' });
  route(routes, { type: 'profiles/list', profiles: [], active: '' });
  route(routes, { type: 'tools/list', tools: [], choice: 'auto' });
  route(routes, { type: 'nobody/here' } as unknown as HostMessage);
  assert.deepEqual(seen, ['history <- history/list', 'profiles <- profiles/list']);
});
