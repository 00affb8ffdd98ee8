// Traffic through a real HTTP proxy (Debian's tinyproxy) with VS Code's own proxy support: the
// extension's fetch is the extension host's global one, which VS Code patches to follow
// `http.proxy` and `http.noProxy`, and video downloads use node:http, whose `request` VS Code
// patches the same way. Two facts of VS Code shape the set-up: it never proxies
// `localhost`/`127.0.0.1` (@vscode/proxy-agent sends them direct), and its fetch always tunnels
// (undici's ProxyAgent sends CONNECT even for http:// URLs). So the gateway is addressed by
// made-up names (chat.gws.test, video.gws.test) that only the proxy knows: tinyproxy's `Upstream`
// rules route each to the local gateway, which serves the CONNECT tunnel itself.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { describeError } from '../../src/contracts/errorWords';
import { GatewayError } from '../../src/api/transport/errors';
import { VideoClient } from '../../src/api/video/video';
import { getGatewayClient } from '../../src/platform/gateway';
import { pollLoop } from '../../src/video/jobs/core/pollLoop';
import type { Services } from '../../src/platform/services';
import { control, extension, gateway, keyStore, setSetting, waitFor } from './env';
import { saveTo } from '../../src/video/jobs/core/saveDownload';

const CHAT_HOST = 'chat.gws.test';
const VIDEO_HOST = 'video.gws.test';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

/** A tinyproxy in the foreground on 127.0.0.1 with its own config and log. */
interface Proxy {
  url: string;
  log(): string;
  stop(): void;
}

async function startTinyproxy(extra: string[] = []): Promise<Proxy> {
  const bin = spawnSync('sh', ['-c', 'command -v tinyproxy'], { encoding: 'utf8' }).stdout.trim();
  assert.ok(
    bin,
    'tinyproxy is not installed (scripts/ensureSetup.mjs installs it on Debian: apt-get install tinyproxy)',
  );
  const dir = mkdtempSync(join(tmpdir(), 'gws-proxy-'));
  const port = await freePort();
  const chatPort = new URL(gateway.url).port;
  const videoPort = new URL(gateway.videoUrl).port;
  const conf = join(dir, 'tinyproxy.conf');
  const logFile = join(dir, 'tinyproxy.log');
  writeFileSync(
    conf,
    [
      `Port ${port}`,
      'Listen 127.0.0.1',
      'Timeout 60',
      'LogLevel Connect',
      `LogFile "${logFile}"`,
      'MaxClients 50',
      'Allow 127.0.0.1',
      'DisableViaHeader Yes',
      `Upstream http 127.0.0.1:${chatPort} "${CHAT_HOST}"`,
      `Upstream http 127.0.0.1:${videoPort} "${VIDEO_HOST}"`,
      ...extra,
    ].join('\n') + '\n',
  );
  writeFileSync(logFile, '');
  const child: ChildProcess = spawn(bin, ['-d', '-c', conf], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  // Ready when its port accepts a connection (its log says so only at the Info level).
  await waitFor(
    `tinyproxy on ${url}`,
    () =>
      new Promise<boolean>((resolve) => {
        const sock = connect(port, '127.0.0.1', () => {
          sock.destroy();
          resolve(true);
        });
        sock.on('error', () => resolve(false));
      }),
    10_000,
  );
  return {
    url,
    log: () => readFileSync(logFile, 'utf8'),
    stop: () => {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Sets (or with undefined removes) a user setting of any section, waiting for the change event. */
async function setHttp(key: string, value: unknown): Promise<void> {
  const cfg = vscode.workspace.getConfiguration('http');
  if (JSON.stringify(cfg.inspect(key)?.globalValue) === JSON.stringify(value)) return;
  await cfg.update(key, value, vscode.ConfigurationTarget.Global);
}

async function services(): Promise<Services> {
  return (await extension()).exports as Services;
}

/** The user-visible words for a failure of `p`, which must fail with a GatewayError, within `ms`. */
async function failure(p: Promise<unknown>, ms = 30_000): Promise<{ title: string; detail: string; ms: number }> {
  const t0 = Date.now();
  const timer = new Promise<'hang'>((r) => setTimeout(() => r('hang'), ms));
  const outcome = await Promise.race([
    p.then(
      () => 'ok' as const,
      (e: unknown) => e,
    ),
    timer,
  ]);
  assert.notEqual(outcome, 'hang', `no answer and no error within ${ms / 1000} s: a hang`);
  assert.notEqual(outcome, 'ok', 'expected a failure');
  assert.ok(outcome instanceof GatewayError, `expected a GatewayError, got ${String(outcome)}`);
  const d = describeError(outcome);
  const took = Date.now() - t0;
  // What the user reads, in the run's log (the README's proxy figures come from here).
  console.log(`      shown after ${took} ms: ${d.title}. ${d.detail}`);
  return { title: d.title, detail: d.detail, ms: took };
}

describe('through an HTTP proxy (tinyproxy, http.proxy)', function () {
  let proxy: Proxy;
  const chatUrl = () => `http://${CHAT_HOST}:${new URL(gateway.url).port}`;
  const videoUrl = () => `http://${VIDEO_HOST}:${new URL(gateway.videoUrl).port}`;

  before(async () => {
    proxy = await startTinyproxy();
    await setHttp('proxy', proxy.url);
    await setHttp('noProxy', []);
    // The made-up names are not loopback: plain http to them needs the user's opt-in.
    await setSetting('network.allowInsecureHttp', true);
    await setSetting('baseUrl', chatUrl());
    await setSetting('videoBaseUrl', videoUrl());
    await setSetting('network.maxRetries', 0);
    await setSetting('network.requestTimeoutSeconds', 20);
  });
  beforeEach(async () => {
    await control('reset');
    await (await keyStore()).set(gateway.validKey);
  });
  after(async () => {
    await setHttp('proxy', undefined);
    await setHttp('noProxy', undefined);
    await setSetting('baseUrl', gateway.url);
    await setSetting('videoBaseUrl', undefined);
    await setSetting('network.allowInsecureHttp', undefined);
    await setSetting('network.maxRetries', undefined);
    await setSetting('network.requestTimeoutSeconds', undefined);
    await (await keyStore()).clear();
    proxy?.stop();
  });

  it('the model list, a streamed chat answer and a video download all go through the proxy (its log shows each)', async () => {
    const s = await services();
    const r = await vscode.commands.executeCommand<{ ok: boolean; title: string; detail: string; models?: string[] }>(
      'gatewayStudio.checkConnection',
    );
    assert.equal(r.ok, true, `${r.title}: ${r.detail}`);
    assert.ok(r.models?.includes('gw-chat'));

    const chat = await getGatewayClient(s);
    const deltas: string[] = [];
    const answer = await chat.streamChat(
      { model: 'gw-chat', messages: [{ role: 'user', content: 'hello through the proxy' }] },
      { onEvent: (e) => void (e.type === 'text' && deltas.push(e.text)) },
    );
    assert.equal(answer.message.content, 'Echo: hello through the proxy');
    assert.ok(deltas.length > 1, 'the answer streamed in pieces');

    const video = new VideoClient((await getGatewayClient(s, 'video')).http);
    const { id } = await video.create({ model: 'vendor-image-video', prompt: 'proxied fox' });
    const polled = await pollLoop(video, id, { intervalMs: 200, limit: 200 });
    assert.equal(polled.kind, 'done');
    const dir = mkdtempSync(join(tmpdir(), 'gws-proxy-video-'));
    try {
      const saved = await video.download(id, saveTo(join(dir, 'fox.mp4')), { videoId: id });
      assert.equal(readFileSync(saved.file).subarray(4, 8).toString('latin1'), 'ftyp');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const log = proxy.log();
    assert.match(
      log,
      new RegExp(`CONNECT ${CHAT_HOST.replace(/\./g, '\\.')}:\\d+`),
      `the chat host went through the proxy:\n${log}`,
    );
    assert.match(
      log,
      new RegExp(`CONNECT ${VIDEO_HOST.replace(/\./g, '\\.')}:\\d+`),
      `the video host went through the proxy:\n${log}`,
    );
    // The download goes through node:http, which VS Code patches too (src/api/transport/wireGet.ts): for an
    // http:// URL its proxy agent forwards the GET with the absolute URI instead of a CONNECT.
    assert.match(
      log,
      new RegExp(`GET http://${VIDEO_HOST.replace(/\./g, '\\.')}:\\d+/v1/videos/${id}/content`),
      `the video download was a GET forwarded by the proxy:\n${log}`,
    );
    // The gateway saw every request arrive through the proxy, under the made-up host names.
    const seen = (await control('requests')) as { method: string; route: string; headers: Record<string, string> }[];
    for (const route of ['/v1/models', '/v1/chat/completions', '/v1/videos/generations', '/v1/videos/:id/content']) {
      const hit = seen.find((q) => q.route === route);
      assert.ok(hit, `${route} reached the gateway`);
      assert.match(hit.headers.host ?? '', /\.gws\.test:/, `${route} came through the proxy`);
    }
  });

  it('http.noProxy is honoured: a listed host is not sent to the proxy', async () => {
    await setHttp('noProxy', [VIDEO_HOST]);
    try {
      const before = proxy.log().length;
      const video = new VideoClient((await getGatewayClient(await services(), 'video')).http);
      // Outside the proxy the made-up name cannot be resolved: the request fails, and the proxy
      // never saw it, while the chat host still goes through.
      const f = await failure(video.create({ model: 'vendor-image-video', prompt: 'direct fox' }));
      assert.equal(f.title, 'Could not reach the gateway');
      assert.match(f.detail, /video\.gws\.test.*(ENOTFOUND|EAI_AGAIN)/);
      assert.doesNotMatch(f.detail, /through the proxy/, 'a host sent direct is not blamed on the proxy');
      await control('reset');
      const chat = await getGatewayClient(await services());
      assert.ok((await chat.listModels()).length > 0);
      const after = proxy.log().slice(before);
      assert.doesNotMatch(after, /CONNECT video\.gws\.test/);
      // The chat host still goes through the proxy. Its log shows no new CONNECT when the tunnel
      // of an earlier test is reused (keep-alive), so the proof is the gateway's: the request
      // arrived under the made-up name, which only the proxy's Upstream rule resolves.
      const seen = (await control('requests')) as { route: string; headers: Record<string, string> }[];
      const models = seen.find((q) => q.route === '/v1/models');
      assert.ok(models, 'the model list reached the gateway');
      assert.match(models.headers.host ?? '', /^chat\.gws\.test:/);
    } finally {
      await setHttp('noProxy', []);
    }
  });

  it('a proxy that requires authentication and gets none gives a clear error naming the proxy, not a hang', async () => {
    const guarded = await startTinyproxy(['BasicAuth gws secret-proxy-password']);
    try {
      await setHttp('proxy', guarded.url);
      const chat = await getGatewayClient(await services());
      const f = await failure(chat.listModels());
      assert.match(`${f.title} ${f.detail}`, /407|authentication/i);
      assert.ok(f.detail.includes(guarded.url.replace('http://', '')), `the error names the proxy: ${f.detail}`);
      assert.match(guarded.log(), /CONNECT chat\.gws\.test/);
    } finally {
      await setHttp('proxy', proxy.url);
      guarded.stop();
    }
  });

  it('a proxy that is down gives a clear error naming it, not a hang', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    await setHttp('proxy', dead);
    try {
      const chat = await getGatewayClient(await services());
      const f = await failure(chat.listModels());
      assert.equal(f.title, 'Could not reach the gateway');
      assert.ok(f.detail.includes(dead.replace('http://', '')), `the error names the proxy: ${f.detail}`);
      assert.ok(f.ms < 15_000, `it failed in ${f.ms} ms`);
    } finally {
      await setHttp('proxy', proxy.url);
    }
  });
});
