// What acts on the agents model (webview/chat/models/agentActions.ts) is tested with the model
// itself in agents.test.ts; this file checks the one rule left: nothing is sent while a request runs.
import '../../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runHandoff } from '../../../../../webview/chat/models/agentActions';
import { createAgentsModel } from '../../../../../webview/chat/models/agents';
import { createConversationModel } from '../../../../../webview/chat/models/conversation';
import { createStringsModel } from '../../../../../webview/chat/models/strings';
import { recordPosts } from '../../nodePage';
import { conversation, DEFAULTS } from './fixtures';

void test('a sending handoff does nothing while a request runs: not even the switch', () => {
  const posted = recordPosts();
  const c = createConversationModel({ t: createStringsModel().t });
  const a = createAgentsModel({ conversation: c, draft: () => undefined });
  c.show(conversation('c1', [], { agent: 'plan' }), DEFAULTS, 'gw-chat', '');
  c.busyRequestId.value = 'r1';
  runHandoff(a, { label: 'Go', agent: 'agent', prompt: 'go', send: true });
  assert.deepEqual(posted, []);
  assert.equal(c.meta.value?.agent, 'plan');
});
