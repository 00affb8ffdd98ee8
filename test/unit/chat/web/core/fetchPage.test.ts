// fetch_url's HTTP step against a real server on 127.0.0.1, allowed through the same parse the
// user setting goes through (and refused when it is not allowed).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readAllowedHosts, WebRefusal, type Resolve } from '../../../../../src/chat/web/core/addressRule';
import { DEFAULT_LIMITS, fetchPage, type FetchOptions } from '../../../../../src/chat/web/core/fetchPage';
import { startWebPages, type WebPages } from '../../../../support/webPages';

let pages: WebPages;
before(async () => {
  pages = await startWebPages();
});
after(async () => pages.close());

const local: Resolve = async () => [{ address: '127.0.0.1', family: 4 }];
const opts = (o: Partial<FetchOptions> = {}): FetchOptions => ({
  allowed: readAllowedHosts(['127.0.0.1']).hosts,
  resolve: local,
  limits: { ...DEFAULT_LIMITS, timeoutMs: 3_000 },
  signal: new AbortController().signal,
  ...o,
});
const url = (p: string) => new URL(`${pages.base}${p}`);

void describe('fetchPage', () => {
  void it('reads a page from an allowed private host', async () => {
    const out = await fetchPage(url('/article'), opts());
    assert.equal(out.kind, 'page');
    if (out.kind !== 'page') return;
    assert.equal(out.page.status, 200);
    assert.match(out.page.contentType, /text\/html/);
    assert.match(out.page.body.toString(), /Streaming answers/);
    assert.equal(out.page.cut, undefined);
  });

  void it('refuses 127.0.0.1 when the user did not allow it', async () => {
    await assert.rejects(fetchPage(url('/article'), opts({ allowed: new Set() })), (e: unknown) => {
      assert.ok(e instanceof WebRefusal);
      assert.match(e.message, /own machine or network.*gatewayStudio\.web\.allowPrivateHosts/);
      return true;
    });
  });

  void it('follows a redirect within the same host', async () => {
    const out = await fetchPage(url('/redirect-same'), opts());
    assert.equal(out.kind, 'page');
    if (out.kind === 'page') assert.equal(out.page.url, `${pages.base}/article`);
  });

  void it('refuses a redirect to a private address the user did not allow, and to file:', async () => {
    await assert.rejects(fetchPage(url('/redirect-private'), opts()), /localhost:\d+ is an address in the user's own/);
    await assert.rejects(fetchPage(url('/redirect-metadata'), opts()), /169\.254\.169\.254 is an address/);
    await assert.rejects(fetchPage(url('/redirect-file'), opts()), /file: URLs are not fetched/);
  });

  void it('does not follow a redirect to another host: it names it', async () => {
    const out = await fetchPage(url('/redirect-other'), opts());
    assert.deepEqual(out, {
      kind: 'elsewhere',
      from: `${pages.base}/redirect-other`,
      to: 'https://elsewhere.example/collect?data=1',
      status: 307,
    });
  });

  void it('stops a redirect loop', async () => {
    await assert.rejects(fetchPage(url('/redirect-loop'), opts()), /Stopped after 5 redirects/);
  });

  void it('reads only the first 5 MB of a 50 MB page', async () => {
    const out = await fetchPage(url('/big'), opts({ limits: { ...DEFAULT_LIMITS, timeoutMs: 20_000 } }));
    assert.equal(out.kind, 'page');
    if (out.kind !== 'page') return;
    assert.equal(out.page.cut, 'size');
    assert.equal(out.page.body.length, 5 * 1024 * 1024);
    assert.equal(out.page.declaredBytes, 50 * 1024 * 1024);
  });

  void it('cuts a page that never finishes at the time limit, keeping what arrived', async () => {
    const started = Date.now();
    const out = await fetchPage(url('/slow'), opts({ limits: { ...DEFAULT_LIMITS, timeoutMs: 400 } }));
    assert.ok(Date.now() - started < 2_000);
    assert.equal(out.kind, 'page');
    if (out.kind !== 'page') return;
    assert.equal(out.page.cut, 'time');
    assert.equal(out.page.body.toString(), 'The first line arrived.\n');
  });

  void it('says so when a server never answers', async () => {
    await assert.rejects(
      fetchPage(url('/silent'), opts({ limits: { ...DEFAULT_LIMITS, timeoutMs: 300 } })),
      /did not answer within 0 s|did not answer within/,
    );
  });

  void it('a name that resolves to a private address is refused unless allowed by name', async () => {
    const named = new URL(`http://pages.test:${pages.port}/article`);
    await assert.rejects(fetchPage(named, opts()), /pages\.test resolves to 127\.0\.0\.1/);
    const mixed: Resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    await assert.rejects(fetchPage(named, opts({ resolve: mixed })), /resolves to 10\.0\.0\.5/);
    const out = await fetchPage(named, opts({ allowed: readAllowedHosts(['pages.test']).hosts }));
    assert.equal(out.kind, 'page');
  });

  void it('stops when the user presses Stop', async () => {
    const ac = new AbortController();
    const p = fetchPage(url('/silent'), opts({ signal: ac.signal }));
    ac.abort();
    await assert.rejects(p, /Stopped/);
  });
});
