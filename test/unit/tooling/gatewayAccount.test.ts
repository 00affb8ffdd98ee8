// The local gateway's account endpoints (test/gateway/account.ts): every chat call and every clip
// is deducted by the gateway's own prices, the log lists each charge, and the knobs reach the
// shapes new-api answers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ACCOUNT_PRICES, DEFAULT_BALANCE } from '../../gateway/account';
import { useGateway } from '../../support/helpers';

const gw = useGateway({ videoStepMs: 5, videoSteps: 1 });
const auth = () => ({ authorization: `Bearer ${gw.keys.valid}`, 'content-type': 'application/json' });
const get = async (path: string, withKey = true) => {
  const r = await fetch(gw.url + path, { headers: withKey ? auth() : {} });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};
const reset = () => fetch(`${gw.url}/__control/reset`, { method: 'POST' });

void describe('local gateway: account', () => {
  void it('the demo key has a balance; a chat call and a clip are deducted exactly and logged', async () => {
    await reset();
    assert.equal(gw.account().remaining, DEFAULT_BALANCE);
    gw.setAccount({ groupRatio: 2 });
    const chat = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ model: 'gw-vision', messages: [{ role: 'user', content: 'count me' }] }),
    });
    const usage = ((await chat.json()) as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
    const p = ACCOUNT_PRICES['gw-vision']!;
    const chatQuota = Math.round(
      (usage.prompt_tokens + usage.completion_tokens * p.completion_ratio) * p.model_ratio * 2,
    );
    assert.equal(gw.account().remaining, DEFAULT_BALANCE - chatQuota);
    const clip = await fetch(`${gw.videoUrl}/v1/videos/generations`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ model: 'vendor-image-video', prompt: 'a cat', seconds: 6 }),
    });
    assert.equal(clip.status, 200);
    const clipQuota = Math.round(0.025 * 2 * 500000 * 6);
    assert.equal(gw.account().remaining, DEFAULT_BALANCE - chatQuota - clipQuota);
    const log = await get('/api/log/token');
    const rows = log.body.data as Array<{ model_name: string; quota: number }>;
    assert.deepEqual(
      rows.map((r) => [r.model_name, r.quota]),
      [
        ['vendor-image-video', clipQuota],
        ['gw-vision', chatQuota],
      ],
    );
    const usageToken = await get('/api/usage/token');
    assert.equal((usageToken.body.data as { total_used: number }).total_used, chatQuota + clipQuota);
  });

  void it('public and keyed routes; knobs for unlimited, 200-with-error, missing and the dashboard quirks', async () => {
    await reset();
    assert.equal((await get('/api/status', false)).status, 200);
    assert.equal((await get('/api/pricing', false)).status, 200);
    assert.equal((await get('/api/usage/token', false)).status, 401);
    gw.setAccount({ displayType: 'CNY', usdExchangeRate: 8, balance: 500_000 });
    const sub = await get('/dashboard/billing/subscription');
    assert.equal(sub.body.hard_limit_usd, 8);
    gw.setAccount({ unlimited: true });
    assert.equal((await get('/v1/dashboard/billing/subscription')).body.hard_limit_usd, 100000000);
    gw.setAccount({ endpoints: { usage: 'error200', pricing: 'missing' } });
    const err = await get('/v1/dashboard/billing/usage');
    assert.equal(err.status, 200);
    assert.ok(err.body.error);
    assert.equal((await get('/api/pricing', false)).status, 404);
    const counted = gw.counts();
    assert.ok(counted['GET /api/pricing'] !== undefined, 'account routes are counted');
  });

  void it("a clip's row names its task; a failed clip keeps its charge unless refundFailedClips gives it back", async () => {
    const clip = async (prompt: string): Promise<string> => {
      const r = await fetch(`${gw.videoUrl}/v1/videos/generations`, {
        method: 'POST',
        headers: auth(),
        body: JSON.stringify({ model: 'vendor-image-video', prompt, seconds: 4 }),
      });
      return ((await r.json()) as { id: string }).id;
    };
    const status = async (id: string): Promise<string> => {
      await new Promise((r) => setTimeout(r, 20));
      const r = await fetch(`${gw.videoUrl}/v1/videos/${id}`, { headers: auth() });
      return ((await r.json()) as { status: string }).status;
    };
    const quota = Math.round(0.025 * 500000 * 4);
    type Row = { type: number; quota: number; other: string };
    const rowsOf = async (id: string): Promise<Row[]> =>
      ((await get('/api/log/token')).body.data as Row[]).filter(
        (r) => (JSON.parse(r.other) as { task_id?: string }).task_id === id,
      );

    await reset();
    const kept = await clip('a storm #fail');
    assert.equal(await status(kept), 'failed');
    assert.equal(await status(kept), 'failed');
    assert.deepEqual(
      (await rowsOf(kept)).map((r) => [r.type, r.quota]),
      [[2, quota]],
    );
    assert.equal(gw.account().remaining, DEFAULT_BALANCE - quota, 'new-api#2050: the failed task stays charged');

    await reset();
    gw.setAccount({ refundFailedClips: true });
    const refunded = await clip('a storm #fail');
    assert.equal(await status(refunded), 'failed');
    assert.equal(await status(refunded), 'failed');
    assert.deepEqual(
      (await rowsOf(refunded)).map((r) => [r.type, r.quota]),
      [
        [6, quota],
        [2, quota],
      ],
      'one refund, however often the status is read',
    );
    assert.equal(gw.account().remaining, DEFAULT_BALANCE);

    await reset();
    gw.setAccount({ clipLogRows: false });
    const silent = await clip('a quiet clip');
    assert.deepEqual(await rowsOf(silent), []);
    assert.equal(gw.account().remaining, DEFAULT_BALANCE - quota, 'charged, only without a row');
  });
});
