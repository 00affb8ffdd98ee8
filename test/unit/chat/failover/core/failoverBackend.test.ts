// Failover over real HTTP (src/chat/failover/core/failoverBackend.ts): three local gateway
// instances stand for three relays, each profile a real GatewayClient with its own key (and the
// second with the header it requires). The first refuses in the relays' documented shapes.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { GatewayClient } from '../../../../../src/api/client';
import type { ChatRequest, ChatStreamEvent } from '../../../../../src/api/chat/wire';
import { isGatewayError } from '../../../../../src/api/transport/errors';
import { CoolDowns, type CoolDown } from '../../../../../src/chat/failover/core/coolDowns';
import {
  FailoverBackend,
  ModelLists,
  withoutEncryptedReasoning,
  type FailoverTarget,
} from '../../../../../src/chat/failover/core/failoverBackend';
import { readFailoverLists, type PlanProfile } from '../../../../../src/chat/failover/core/failoverPlan';
import { SECOND_GATEWAY } from '../../../../gateway/keys';
import type { Gateway } from '../../../../gateway/server';
import { useGateway } from '../../../../support/helpers';

const a = useGateway({ models: { 'only-a': 'gw-chat' } });
const b = useGateway({ ...SECOND_GATEWAY });
const c = useGateway({});

const chats = (g: Gateway) =>
  g.requests().filter((r) => r.route === '/v1/chat/completions' || r.route === '/v1/responses');

interface Setup {
  failover: Record<string, string[]>;
  /** Keys by profile (default: each gateway's valid key). */
  keys?: Partial<Record<string, string>>;
  /** Profiles besides a, b, c: id -> base URL. */
  extra?: Record<string, string>;
  primaryUrl?: string;
  coolDowns?: Record<string, CoolDown>;
}

function harness(o: Setup) {
  const url: Record<string, string> = { a: o.primaryUrl ?? a.url, b: b.url, c: c.url, ...o.extra };
  const key: Record<string, string> = { a: a.keys.valid, b: b.keys.valid, c: c.keys.valid, ...o.extra, ...o.keys };
  const clients = new Map<string, GatewayClient>();
  const client = (id: string) => {
    let cl = clients.get(id);
    if (!cl) {
      const headers: Record<string, string> =
        id === 'b' ? { [SECOND_GATEWAY.requiredHeader.name]: SECOND_GATEWAY.requiredHeader.value } : {};
      cl = new GatewayClient({ baseUrl: url[id]!, apiKey: key[id], headers, maxRetries: 0 });
      clients.set(id, cl);
    }
    return cl;
  };
  const target = (id: string): FailoverTarget => ({
    profileId: id,
    name: id.toUpperCase(),
    client: client(id),
    relay: client(id).http.baseUrl,
  });
  const stored: Record<string, CoolDown>[] = [];
  const coolDowns = new CoolDowns({ load: () => o.coolDowns ?? {}, save: (all) => void stored.push(all) });
  const profiles: PlanProfile[] = Object.keys(url).map((id) => ({ id, name: id.toUpperCase(), problems: [] }));
  const log: string[] = [];
  const backend = new FailoverBackend(target('a'), {
    lists: () => readFailoverLists(o.failover),
    profiles: () => profiles,
    target: (id) => Promise.resolve(target(id)),
    coolDowns,
    models: new ModelLists(),
    timeText: () => 'HH:MM',
    log: (l) => log.push(l),
  });
  return { backend, coolDowns, stored, log };
}

const request = (text: string, model = 'gw-chat'): ChatRequest => ({
  model,
  messages: [{ role: 'user', content: text }],
});

async function stream(backend: FailoverBackend, req: ChatRequest) {
  const events: ChatStreamEvent[] = [];
  const result = await backend.streamChat(req, { onEvent: (e) => events.push(e) });
  return { result, text: events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('') };
}

/** A port nothing listens on: a connection there is refused. */
async function closedPort(): Promise<string> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

void describe('FailoverBackend', () => {
  void it('with the first profile healthy: its answer, nothing else asked, nothing said', async () => {
    const h = harness({ failover: { 'gw-chat': ['a', 'b'] } });
    const { result, text } = await stream(h.backend, request('hello'));
    assert.equal(text, 'Echo: hello');
    assert.equal(result.notices, undefined);
    assert.equal(h.backend.answered.profileId, 'a');
    assert.equal(chats(a).length, 1);
    assert.equal(b.requests().length, 0, 'the second relay was not even asked for its models');
  });

  void it('429 after the retries: B answers with its own key and header, says so, and A is skipped for its cool-down', async () => {
    a.fault({ status: 429, retryAfter: 120 });
    const h = harness({ failover: { 'gw-chat': ['a', 'b'] } });
    const first = await stream(h.backend, request('one'));
    assert.equal(first.text, 'Echo: one');
    assert.equal(h.backend.answered.profileId, 'b');
    assert.match(first.result.notices![0]!, /^Answered by B: A said: HTTP 429 .*Rate limit exceeded/);
    const sent = chats(b);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.auth, 'valid', "B got its own key, not A's");
    assert.equal(sent[0]!.headers[SECOND_GATEWAY.requiredHeader.name], SECOND_GATEWAY.requiredHeader.value);
    assert.equal(h.coolDowns.active('a')?.cause, 'rate_limit');
    assert.ok(
      h.coolDowns.active('a')!.until - Date.now() > 100_000,
      "the 429's retry-after (120 s) sets the cool-down",
    );
    assert.ok(h.stored.length > 0, 'the cool-down is written for the balance tooltip');
    // The next request skips A without asking it.
    const second = await stream(h.backend, request('two'));
    assert.equal(second.text, 'Echo: two');
    assert.match(second.result.notices![0]!, /^Answered by B: A is skipped until HH:MM \(it said: HTTP 429/);
    assert.equal(chats(a).length, 1, 'A was not asked during its cool-down');
  });

  void it("fails over for each of new-api's quota refusals and a 402, and the same for a non-streamed request", async () => {
    for (const shape of [
      'new-api-user-quota',
      'new-api-token-quota',
      'new-api-token-exhausted',
      'payment-required',
    ] as const) {
      a.fault({ relayError: shape });
      const h = harness({ failover: { 'gw-chat': ['b'] } });
      const r = await h.backend.chat(request(shape));
      assert.equal(r.message.content, `Echo: ${shape}`, shape);
      assert.match(r.notices![0]!, /^Answered by B: A said: HTTP 40[123]/, shape);
      assert.equal(h.coolDowns.active('a')?.cause, shape === 'payment-required' ? 'payment' : 'quota');
    }
  });

  void it('a connection refused before headers fails over; so does a reset', async () => {
    const h = harness({ failover: { 'gw-chat': ['b'] }, primaryUrl: await closedPort() });
    assert.equal((await stream(h.backend, request('refused'))).text, 'Echo: refused');
    assert.equal(h.coolDowns.active('a')?.cause, 'connection');
    a.fault({ drop: 'before-headers' });
    const r = harness({ failover: { 'gw-chat': ['b'] } });
    assert.equal((await stream(r.backend, request('reset'))).text, 'Echo: reset');
  });

  void it('never after the first token: a quota error mid-stream ends the answer on A, B is never asked', async () => {
    a.fault({ midStreamError: { afterChunks: 3, message: 'insufficient balance', code: 'insufficient_user_quota' } });
    const h = harness({ failover: { 'gw-chat': ['b'] } });
    const events: ChatStreamEvent[] = [];
    const err = await h.backend.streamChat(request('a b c d e f g h'), { onEvent: (e) => events.push(e) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(isGatewayError(err, 'stream'), String(err));
    assert.ok(
      events.some((e) => e.type === 'text'),
      'text had arrived from A',
    );
    assert.equal(b.requests().length, 0);
    assert.equal(h.coolDowns.active('a'), undefined);
  });

  void it('a refusal another relay would share (400) is not failed over', async () => {
    // Every time: the client sends once more without stream_options after a bare 400.
    a.fault({ status: 400, times: -1 });
    const h = harness({ failover: { 'gw-chat': ['b'] } });
    await assert.rejects(stream(h.backend, request('x')), (e) => isGatewayError(e) && e.status === 400);
    assert.equal(b.requests().length, 0);
  });

  void it('a profile whose key was revoked mid-failover is named and skipped; the next one answers', async () => {
    a.fault({ status: 503 });
    const h = harness({ failover: { 'gw-chat': ['b', 'c'] }, keys: { b: 'sk-revoked' } });
    const { result, text } = await stream(h.backend, request('still here'));
    assert.equal(text, 'Echo: still here');
    assert.equal(h.backend.answered.profileId, 'c');
    const n = result.notices!.join('\n');
    assert.match(n, /^Answered by C: A said: HTTP 503/);
    assert.match(n, /B could not be asked: HTTP 401/);
    assert.equal(h.coolDowns.active('b')?.cause, 'key');
    assert.equal(chats(b).length, 0, 'no chat request went out with the revoked key');
  });

  void it('a list naming no profile, or a profile without the model: a line each, and the error says everything', async () => {
    a.fault({ status: 429 });
    const h = harness({ failover: { 'only-a': ['ghost', 'b'] } });
    const err = await stream(h.backend, request('x', 'only-a')).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(isGatewayError(err, 'rate_limit'), String(err));
    assert.match(err.message, /A said: HTTP 429/);
    assert.match(err.message, /"ghost", which is no profile/);
    assert.match(err.message, /B does not list only-a/);
    assert.equal(chats(b).length, 0);
  });

  void it('never asks the same relay twice in one request, even under another profile', async () => {
    a.fault({ status: 429, times: -1 });
    const h = harness({ failover: { 'gw-chat': ['twin'] }, extra: { twin: a.url } });
    const err = await stream(h.backend, request('x')).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(isGatewayError(err));
    assert.match(err.message, /TWIN is the same relay as one already asked/);
    assert.equal(chats(a).length, 1);
  });

  void it("A's encrypted reasoning is not sent to B, and B's is not kept for A's conversation", async () => {
    // A Responses model: A's answer comes with encrypted reasoning only A can read.
    const h = harness({ failover: { 'gw-codex': ['c'] } });
    const first = await h.backend.streamChat(request('think', 'gw-codex'), {});
    const reasoning = first.message.encrypted_reasoning;
    assert.ok(reasoning && reasoning.items.length > 0, 'A answered with encrypted reasoning');
    const next: ChatRequest = {
      model: 'gw-codex',
      messages: [
        { role: 'user', content: 'think' },
        { role: 'assistant', content: first.message.content, encrypted_reasoning: reasoning },
        { role: 'user', content: 'again' },
      ],
    };
    a.fault({ status: 429, match: { path: '/v1/responses' } });
    // C would refuse A's ciphertext with 400 invalid_encrypted_content: it answers because none is sent.
    const r = await h.backend.streamChat(next, {});
    assert.equal(h.backend.answered.profileId, 'c');
    assert.equal(r.message.encrypted_reasoning, undefined, "C's reasoning is not kept for A's conversation");
    const sent = JSON.stringify(chats(c).at(-1)!.body);
    assert.doesNotMatch(sent, /"type":"reasoning"/);
    assert.equal(withoutEncryptedReasoning(request('plain')).messages.length, 1);
  });

  void it('all others failing, a cooling-down own profile is asked after all, once', async () => {
    const cooling = { a: { until: Date.now() + 60_000, cause: 'server', said: 'HTTP 503' } };
    b.fault({ status: 503, match: { path: '/v1/chat/completions' } });
    const h = harness({ failover: { 'gw-chat': ['b'] }, coolDowns: cooling });
    const { result, text } = await stream(h.backend, request('back'));
    assert.equal(text, 'Echo: back');
    assert.equal(h.backend.answered.profileId, 'a');
    assert.match(result.notices![0]!, /^Answered by A: B said: HTTP 503/);
    assert.equal(h.coolDowns.active('a'), undefined, 'A answered: its cool-down is over');
  });
});
