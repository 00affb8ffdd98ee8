// The cost of a chat answer in a real extension host against the local gateway (which deducts
// from its balance by its own prices): the cost the chat shows under the answer is exactly what
// the gateway's balance dropped by, and the saved conversation keeps it. The chat controller is
// the class the panel uses, over the extension's own Services, so its answers are priced by the
// account feature the extension loaded.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { unitFromStatus } from '../../src/account/balance/core/money';
import { ChatController } from '../../src/chat/vscode/controller';
import type { Services } from '../../src/platform/services';
import { formatMoney } from '../../src/shared/money';
import type { AnswerCost, HostMessage } from '../../src/shared/protocol';
import { control, extension, gateway, keyStore, setSetting, waitFor } from './env';
import { FakeWebview } from './fakeWebview';

const remaining = async (): Promise<number> =>
  ((await (await fetch(`${gateway.url}/__control/account`)).json()) as { remaining: number }).remaining;

/** The cost line as the page renders it (webview/chat/cost.ts, English strings). */
const shown = (c: AnswerCost) =>
  c.quota === undefined
    ? 'Cost: unknown'
    : `Cost: ${c.estimate ? '≈' : ''}${formatMoney(c.quota, c.unit, { precise: true, tokens: (f) => `${f} tokens` })}`;

describe('the cost of a chat answer', () => {
  let controller: ChatController | undefined;
  let attached: vscode.Disposable | undefined;
  let page: FakeWebview;

  before(async () => {
    await setSetting('baseUrl', gateway.url);
    await setSetting('chatModel', 'gw-chat');
    await waitFor('the account feature', async () =>
      (await vscode.commands.getCommands(true)).includes('gatewayStudio.spend.showUsage'),
    );
  });
  beforeEach(async () => {
    await control('reset');
    await (await keyStore()).set(gateway.validKey);
    controller = new ChatController((await extension()).exports as Services);
    page = new FakeWebview();
    attached = controller.attach(page as unknown as vscode.Webview);
    page.fromPage({ type: 'webview/ready' });
    page.fromPage({ type: 'chat/new' });
  });
  afterEach(async () => {
    attached?.dispose();
    controller?.dispose();
    await control('reset');
    await (await keyStore()).clear();
  });
  after(async () => {
    await setSetting('chatModel', undefined);
  });

  it("after one answer the displayed cost equals the drop of the gateway's balance", async () => {
    // $25 at 500 000 quota units per dollar, the demo key's balance.
    await control('account', { quotaPerUnit: 500_000, balance: 12_500_000 });
    // The unit is learnt with the balance: read it once now (an earlier suite used another one).
    await vscode.commands.executeCommand('gatewayStudio.spend.refreshBalance');
    const before = await remaining();
    page.fromPage({ type: 'chat/send', requestId: 'r1', text: 'what does this answer cost', images: [], contexts: [] });
    const cost = await waitFor(
      'the chat/cost of the answer',
      () => {
        const m = page.posted.find((x): x is Extract<HostMessage, { type: 'chat/cost' }> => x.type === 'chat/cost');
        return Promise.resolve(m);
      },
      15_000,
    );
    const end = await waitFor('the end of the answer', () => Promise.resolve(page.end('r1')));
    assert.equal(end?.type, 'chat/done', JSON.stringify(end));
    const drop = before - (await remaining());
    assert.ok(drop > 0, 'the gateway charged the answer');
    assert.equal(cost.messageId, end?.type === 'chat/done' ? end.message?.id : undefined, 'the cost is the answer’s');
    assert.equal(cost.cost.estimate, false, JSON.stringify(cost.cost));
    assert.equal(cost.cost.quota, drop, 'to the quota unit');
    const unit = unitFromStatus({ displayType: 'USD', quotaPerUnit: 500_000 });
    assert.equal(shown(cost.cost), `Cost: ${formatMoney(drop, unit, { precise: true, tokens: (f) => f })}`);

    // A reload of the page gets the answer with its cost from the saved conversation.
    page.posted.length = 0;
    page.fromPage({ type: 'webview/ready' });
    const snap = await waitFor('the snapshot', () =>
      Promise.resolve(
        page.posted.find((m): m is Extract<HostMessage, { type: 'chat/snapshot' }> => m.type === 'chat/snapshot'),
      ),
    );
    const answer = snap.conversation.messages.find((m) => m.role === 'assistant');
    assert.equal(answer?.role === 'assistant' ? answer.cost?.quota : undefined, drop);
  });

  it('a gateway that publishes no prices: the answer works and its cost is marked unknown', async () => {
    await control('account', { quotaPerUnit: 500_000, balance: 12_500_000, endpoints: { pricing: 'missing' } });
    // A change of the spend settings drops the prices read before (they are kept ten minutes).
    await setSetting('spend.group', 'other');
    try {
      page.fromPage({ type: 'chat/send', requestId: 'r2', text: 'hello', images: [], contexts: [] });
      const cost = await waitFor(
        'the chat/cost of the answer',
        () =>
          Promise.resolve(
            page.posted.find((x): x is Extract<HostMessage, { type: 'chat/cost' }> => x.type === 'chat/cost'),
          ),
        15_000,
      );
      // The cost may come before the turn's end: the answer still ends as it would without it.
      assert.equal((await waitFor('the end of the answer', () => Promise.resolve(page.end('r2')))).type, 'chat/done');
      assert.equal(cost.cost.quota, undefined);
      assert.equal(cost.cost.estimate, true);
      assert.equal(cost.cost.reason, 'no-price');
      assert.equal(shown(cost.cost), 'Cost: unknown');
    } finally {
      await setSetting('spend.group', undefined);
    }
  });

  it('the usage view opens the ledger per day and model, with no key in it', async () => {
    const uri = await vscode.commands.executeCommand<string>('gatewayStudio.spend.showUsage');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
    const text = doc.getText();
    assert.match(text, /^# Gateway Studio usage/);
    // Earlier suites' gateways are in the same ledger: then the table has a Gateway column.
    assert.match(text, /\| Model \|( Gateway \|| Profile \|)? Requests \||Nothing counted yet/);
    for (const key of [gateway.validKey]) assert.ok(!text.includes(key), 'no key in the usage view');
  });
});
