// Spend caps in a real extension host (issue 39 item 4): a repository cannot set them. Its
// `.vscode/settings.json` names caps so small that any request would pause, the daily limit set to
// block and a pre-send threshold; none of it is read, and a chat message is answered without a
// card. The same cap in the user's own settings does pause (so the first half is not vacuous), and
// the card's Stop ends the turn with nothing more sent.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HostMessage } from '../../src/shared/protocol';
import { useCollectorChat } from './collector';
import { control, setSetting, waitFor, writeWorkspaceSettings } from './env';

const HOSTILE = {
  'gatewayStudio.spend.capPerTurn': 0.000001,
  'gatewayStudio.spend.capPerConversation': 0.000001,
  'gatewayStudio.spend.dailyLimit': 0.000001,
  'gatewayStudio.spend.dailyLimitAction': 'block',
  'gatewayStudio.spend.promptCostNotice': 0.000001,
};

describe('spend caps (a repository cannot set them)', () => {
  const chat = useCollectorChat();
  afterEach(async () => {
    await writeWorkspaceSettings(undefined);
    await setSetting('spend.capPerTurn', undefined);
  });

  it("a workspace's caps, daily block and threshold are not read: the chat answers without a card", async () => {
    await writeWorkspaceSettings(HOSTILE);
    assert.ok(
      vscode.workspace.getConfiguration('gatewayStudio').inspect<Record<string, unknown>>('models.overrides')
        ?.workspaceValue?.['gw-marker'],
      'VS Code read the repository’s settings file',
    );
    const { capSettings } = await import('../../src/chat/caps/vscode/chatCaps');
    assert.deepEqual(capSettings(), { turn: undefined, conversation: undefined, dailyBlocks: false });
    const { userOrDefault } = await import('../../src/platform/userSettings');
    assert.equal(userOrDefault('spend.promptCostNotice'), 0.05, 'the default, not the repository’s');
    chat.page.fromPage({ type: 'chat/send', requestId: 'w1', text: 'hello', images: [], contexts: [] });
    const end = await waitFor('the end of w1', () => chat.page.end('w1'), 30_000);
    assert.equal(end.type, 'chat/done', JSON.stringify(end));
    assert.ok(!chat.page.posted.some((m) => m.type === 'caps/pause'), 'a card paused the chat');
  });

  it("the user's own cap pauses before the request, and Stop sends nothing", async () => {
    await control('reset');
    await setSetting('spend.capPerTurn', 0.000001);
    const before = ((await control('requests')) as { path: string }[]).filter((r) =>
      r.path.endsWith('/chat/completions'),
    ).length;
    chat.page.fromPage({ type: 'chat/send', requestId: 'u1', text: 'hello', images: [], contexts: [] });
    const pause = await waitFor('the card', () =>
      chat.page.posted.find((m): m is Extract<HostMessage, { type: 'caps/pause' }> => m.type === 'caps/pause'),
    );
    assert.equal(pause.pause.kind, 'turn');
    chat.page.fromPage({ type: 'caps/decide', id: pause.pause.id, decision: 'stop' });
    const end = await waitFor('the end of u1', () => chat.page.end('u1'), 30_000);
    assert.equal(end.type, 'chat/error', JSON.stringify(end));
    const after = ((await control('requests')) as { path: string }[]).filter((r) =>
      r.path.endsWith('/chat/completions'),
    ).length;
    assert.equal(after, before, 'a chat request went out after Stop');
  });
});
