import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { control, gateway, keyStore, setSetting } from './env';

/** The part of Check Connection's structured result these tests read. */
interface CheckResult {
  ok: boolean;
  baseUrl?: string;
  keySet: boolean;
  status?: number;
  models?: string[];
  errorKind?: string;
  title: string;
  detail: string;
  actions: string[];
}

async function check(): Promise<CheckResult> {
  const r = await vscode.commands.executeCommand<CheckResult>('gatewayStudio.checkConnection');
  assert.ok(r && typeof r === 'object', 'Check Connection must return its structured result');
  return r;
}

describe('Check Connection against the local gateway', () => {
  beforeEach(async () => {
    await control('reset');
    await setSetting('baseUrl', gateway.url);
    await setSetting('network.maxRetries', 0);
  });
  afterEach(async () => {
    await (await keyStore()).clear();
    await setSetting('baseUrl', gateway.url);
    await setSetting('network.maxRetries', undefined);
    await control('clear');
  });

  it('with the demo key it reports a 200 and the chat models the gateway lists', async () => {
    await (await keyStore()).set(gateway.validKey);
    const r = await check();
    assert.equal(r.ok, true, `${r.title}: ${r.detail}`);
    assert.equal(r.status, 200);
    assert.equal(r.keySet, true);
    assert.equal(r.baseUrl, `${gateway.url}/v1`);
    assert.ok(r.models?.includes('gw-chat'), `models: ${JSON.stringify(r.models)}`);
    assert.equal(r.title, 'Connected to the gateway');
    assert.match(r.detail, /answered 200 OK/);
  });

  it('a wrong key gives a 401 that tells the user to set the key, and offers Set API Key', async () => {
    await (await keyStore()).set('sk-not-a-real-key');
    const r = await check();
    assert.equal(r.ok, false);
    assert.equal(r.status, 401);
    assert.equal(r.errorKind, 'auth');
    assert.equal(r.title, 'The API key was refused (401)');
    assert.match(r.detail, /Set API Key/);
    assert.ok(r.actions.includes('setApiKey'), `actions: ${r.actions.join(', ')}`);
  });

  it('without any key it says no key is set and offers Set API Key first', async () => {
    await (await keyStore()).clear();
    const r = await check();
    assert.equal(r.ok, false);
    assert.equal(r.keySet, false);
    assert.equal(r.status, 401);
    assert.equal(r.actions[0], 'setApiKey');
    assert.match(r.detail, /No API key is set/);
  });

  it('a key without permission gives a 403 naming the group permission', async () => {
    await (await keyStore()).set(gateway.noPermissionKey);
    const r = await check();
    assert.equal(r.ok, false);
    assert.equal(r.status, 403);
    assert.equal(r.errorKind, 'forbidden');
    assert.equal(r.title, 'Access denied (403)');
    assert.match(r.detail, /not allowed/);
  });

  it('a key without balance gives a 403 naming the balance', async () => {
    await (await keyStore()).set(gateway.noBalanceKey);
    const r = await check();
    assert.equal(r.status, 403);
    assert.match(r.detail, /balance/i);
  });

  it('a base URL pointing at the wrong path gives a 404 that blames the base URL', async () => {
    await (await keyStore()).set(gateway.validKey);
    await setSetting('baseUrl', `${gateway.url}/wrong-prefix`);
    const r = await check();
    assert.equal(r.ok, false);
    assert.equal(r.status, 404);
    assert.equal(r.errorKind, 'not_found');
    assert.equal(r.title, 'Not found (404)');
    assert.match(r.detail, /base URL/);
    assert.ok(r.actions.includes('openSettings'), `actions: ${r.actions.join(', ')}`);
  });

  it('a changed base URL is picked up by the next check without reloading', async () => {
    await (await keyStore()).set(gateway.validKey);
    assert.equal((await check()).ok, true);
    await setSetting('baseUrl', `${gateway.url}/elsewhere`);
    const r = await check();
    assert.equal(r.baseUrl, `${gateway.url}/elsewhere/v1`);
    assert.equal(r.status, 404);
  });

  it('an empty base URL is a configuration problem that names the setting', async () => {
    await setSetting('baseUrl', '');
    const r = await check();
    assert.equal(r.ok, false);
    assert.equal(r.status, undefined);
    assert.match(`${r.title} ${r.detail}`, /gatewayStudio\.baseUrl/);
  });

  it('the key goes to the gateway as a bearer token and never appears in the result', async () => {
    await (await keyStore()).set(gateway.validKey);
    await control('reset');
    const r = await check();
    assert.ok(!JSON.stringify(r).includes(gateway.validKey), 'the key leaked into the result');
    const reqs = (await control('requests', undefined)) as { path: string; auth: string }[];
    assert.ok(
      reqs.some((q) => q.path === '/v1/models' && q.auth === 'valid'),
      `requests: ${JSON.stringify(reqs)}`,
    );
  });
});
