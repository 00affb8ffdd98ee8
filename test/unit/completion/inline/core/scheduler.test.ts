// The request policy against the real local gateway: debounce, the cache, a newer keystroke
// aborting the older request at the HTTP level (the gateway sees the connection close), back-off
// after repeated failures, and an error state reported once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import { completeAt } from '../../../../../src/completion/inline/core/completer';
import { assembleContext, type CompletionContext } from '../../../../../src/completion/inline/core/context';
import { CompletionScheduler, type ErrorState } from '../../../../../src/completion/inline/core/scheduler';
import { useGateway } from '../../../../support/helpers';

const gw = useGateway();
const FILE = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n';

function setup(o: { debounceMs?: number; key?: string } = {}) {
  const client = new GatewayClient({ baseUrl: gw.url, apiKey: o.key ?? gw.keys.valid, maxRetries: 0 });
  const errors: (ErrorState | undefined)[] = [];
  const s = new CompletionScheduler<CompletionContext>({
    fetch: (ctx, signal) => completeAt(client, ctx, { model: 'gw-coder', way: 'fim', signal }),
    debounceMs: () => o.debounceMs ?? 0,
    onError: (e) => errors.push(e),
  });
  const ask = (typed: number) => {
    const offset = FILE.indexOf('return') + typed;
    const text = FILE.slice(0, offset) + FILE.slice(FILE.indexOf(';', offset));
    const doc = { text, offset, path: 'a.ts', languageId: 'typescript' };
    return {
      doc: 'a.ts',
      prefix: text.slice(0, offset),
      suffix: text.slice(offset),
      context: () => assembleContext(doc),
    };
  };
  return { s, ask, errors };
}

void describe('CompletionScheduler', () => {
  void it('a suggestion from the gateway, then the typed characters come from the cache', async () => {
    gw.setCompletions({ latencyMs: 0 });
    const { s, ask } = setup();
    assert.deepEqual(await s.suggest(ask(6)), { text: ' a + b', from: 'gateway' });
    assert.deepEqual(await s.suggest(ask(8)), { text: ' + b', from: 'cache' });
    assert.equal(gw.counts()['POST /v1/completions'], 1);
    assert.equal(s.stats.fromCache, 1);
  });

  void it('a newer keystroke aborts the request in flight: the gateway records the closed connection', async () => {
    gw.setCompletions({ latencyMs: 400 });
    try {
      const { s, ask } = setup();
      const first = s.suggest(ask(6));
      await waitUntil(() => (gw.counts()['POST /v1/completions'] ?? 0) === 1);
      const second = s.suggest({ ...ask(6), suffix: 'different;' });
      assert.deepEqual(await first, { none: 'superseded' });
      await second;
      await waitUntil(() => gw.abortedCompletions().length === 1);
      assert.equal(s.stats.aborted, 1);
    } finally {
      gw.setCompletions({ latencyMs: 0 });
    }
  });

  void it('the debounce sends one request for a burst of keystrokes', async () => {
    const { s, ask } = setup({ debounceMs: 60 });
    const outcomes = await Promise.all([s.suggest(ask(1)), s.suggest(ask(2)), s.suggest(ask(3)), s.suggest(ask(6))]);
    assert.deepEqual(
      outcomes.slice(0, 3).map((o) => ('none' in o ? o.none : 'text')),
      ['superseded', 'superseded', 'superseded'],
    );
    assert.equal(gw.counts()['POST /v1/completions'], 1);
    assert.equal(s.stats.aborted, 0, 'nothing was in flight to abort');
  });

  void it('the editor cancelling a pending ask aborts its request', async () => {
    gw.setCompletions({ latencyMs: 400 });
    try {
      const { s, ask } = setup();
      const ctrl = new AbortController();
      const p = s.suggest({ ...ask(6), cancelled: ctrl.signal });
      await waitUntil(() => (gw.counts()['POST /v1/completions'] ?? 0) === 1);
      ctrl.abort();
      assert.deepEqual(await p, { none: 'superseded' });
      await waitUntil(() => gw.abortedCompletions().length === 1);
    } finally {
      gw.setCompletions({ latencyMs: 0 });
    }
  });

  void it('a 401 is reported once and pauses completion; a reset clears it', async () => {
    const { s, ask, errors } = setup({ key: 'sk-wrong' });
    assert.deepEqual(await s.suggest(ask(6)), { none: 'failed' });
    assert.deepEqual(await s.suggest(ask(7)), { none: 'backoff' });
    assert.equal(gw.counts()['POST /v1/completions'], 1);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]?.status, 401);
    assert.match(errors[0]!.title, /401/);
    s.reset();
    assert.equal(errors.length, 2);
    assert.equal(errors[1], undefined);
  });

  void it('three failures in a row back off; a 429 shows once', async () => {
    gw.fault({ match: { path: '/v1/completions' }, status: 500, times: 3 });
    const { s, ask, errors } = setup();
    for (let k = 0; k < 3; k++) assert.deepEqual(await s.suggest(ask(k)), { none: 'failed' });
    assert.deepEqual(await s.suggest(ask(4)), { none: 'backoff' });
    assert.ok(s.backoffUntil > Date.now());
    assert.equal(errors.length, 0, 'a 500 is not one of the shown statuses');
    s.reset();
    gw.fault({ match: { path: '/v1/completions' }, status: 429, times: 2 });
    assert.deepEqual(await s.suggest(ask(1)), { none: 'failed' });
    assert.equal(errors.filter((e) => e?.status === 429).length, 1);
  });
});

async function waitUntil(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
