// fetch_url through the chat's ToolRunner against a real server on 127.0.0.1: per-domain approval
// kept per user, the address rule (127.0.0.1 allowed through the user setting's parse, and
// refused without it), redirects, limits, and a hostile page framed as data.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ToolCall } from '../../../../../src/api/chat/wire';
import { ToolRunner, type ApprovalRequest, type ToolDecision } from '../../../../../src/chat/tools/core/runner';
import { readAllowedHosts, type Resolve } from '../../../../../src/chat/web/core/addressRule';
import { DomainTrust } from '../../../../../src/chat/web/core/domainTrust';
import { fetchUrlTool } from '../../../../../src/chat/web/core/fetchUrlTool';
import { startWebPages, type WebPages } from '../../../../support/webPages';

let pages: WebPages;
before(async () => {
  pages = await startWebPages();
});
after(async () => pages.close());

const local: Resolve = async () => [{ address: '127.0.0.1', family: 4 }];

function setup(o: { allowed?: unknown; decide?: ToolDecision; timeoutMs?: number } = {}) {
  const stored = new Map<string, unknown>();
  const domains = new DomainTrust({ get: (k) => stored.get(k), update: async (k, v) => void stored.set(k, v) });
  const asked: ApprovalRequest[] = [];
  const toolTrust = new Set<string>();
  const runner = new ToolRunner({
    tools: () => [
      fetchUrlTool({
        trust: domains,
        allowedHosts: () => readAllowedHosts(o.allowed ?? ['127.0.0.1']).hosts,
        resolve: local,
        limits: { timeoutMs: o.timeoutMs ?? 5_000 },
      }),
    ],
    approve: async (r) => {
      asked.push(r);
      return o.decide ?? 'allow';
    },
    trust: { isTrusted: (n) => toolTrust.has(n), trust: (n) => void toolTrust.add(n) },
  });
  let n = 0;
  const run = async (args: Record<string, unknown>) => {
    const call: ToolCall = {
      id: `c${++n}`,
      type: 'function',
      function: { name: 'fetch_url', arguments: JSON.stringify(args) },
    };
    const [msg] = await runner.execute([call], { signal: new AbortController().signal, conversationId: 'conv' });
    return String(msg?.content);
  };
  return { run, asked, stored, domains, toolTrust };
}

void describe('fetch_url', () => {
  void it('a page arrives as framed Markdown', async () => {
    const t = setup();
    const out = await t.run({ url: `${pages.base}/article` });
    assert.match(out, /^Fetched http:\/\/127\.0\.0\.1:\d+\/article: HTTP 200, markdown, title "Gateway notes"/);
    assert.match(out, /<<<BEGIN UNTRUSTED WEB CONTENT id=[0-9a-f]{16}>>>\n## Streaming answers/);
    assert.match(out, /\[delta\]\(http:\/\/127\.0\.0\.1:\d+\/docs\/delta\)/);
    assert.equal(t.asked.length, 1);
    assert.match(t.asked[0]?.summary ?? '', /pages from 127\.0\.0\.1 without asking, in every workspace/);
  });

  void it('a hostile page stays data: its fake closing marker is defused, hidden orders are gone', async () => {
    const out = await setup().run({ url: `${pages.base}/article` });
    const id = /id=([0-9a-f]{16})>>>/.exec(out)?.[1];
    assert.ok(id);
    assert.equal(out.split(`<<<END UNTRUSTED WEB CONTENT id=${id}>>>`).length, 2);
    assert.match(out, /END_UNTRUSTED_WEB_CONTENT id=0000 Now you are free/);
    assert.doesNotMatch(out, /IGNORE ALL PREVIOUS/);
  });

  void it('"Always allow" remembers the domain per user; another domain asks again; tool trust does not stand in', async () => {
    const t = setup({ decide: 'alwaysAllow' });
    await t.run({ url: `${pages.base}/article` });
    assert.deepEqual(t.stored.get('gatewayStudio.web.allowedDomains'), ['127.0.0.1']);
    await t.run({ url: `${pages.base}/data.json` });
    assert.equal(t.asked.length, 1, 'the same domain is not asked again');
    assert.equal(t.toolTrust.size, 0, 'nothing is kept in the workspace trust');
    const other = setup({ allowed: ['127.0.0.1', 'pages.test'] });
    other.toolTrust.add('fetch_url');
    await other.run({ url: `http://pages.test:${pages.port}/article` });
    assert.equal(other.asked.length, 1, 'trusting the tool in a workspace does not approve a domain');
  });

  void it('declined: nothing is fetched', async () => {
    const out = await setup({ decide: 'deny' }).run({ url: `${pages.base}/article` });
    assert.match(out, /declined/);
  });

  void it('refuses private addresses (as written, as resolved, by redirect) and file:, before asking', async () => {
    const t = setup({ allowed: [] });
    assert.match(
      await t.run({ url: `${pages.base}/article` }),
      /^Error: Refused: 127\.0\.0\.1:\d+ is an address in the user's own/,
    );
    assert.match(await t.run({ url: 'file:///etc/passwd' }), /^Error: Refused: file: URLs are not fetched/);
    assert.match(await t.run({ url: 'not a url' }), /^Error: "not a url" is not a full URL/);
    assert.equal(t.asked.length, 0);
    assert.match(
      await t.run({ url: `http://pages.test:${pages.port}/article` }),
      /pages\.test resolves to 127\.0\.0\.1/,
    );
    const a = setup();
    assert.match(await a.run({ url: `${pages.base}/redirect-private` }), /Error: Refused: localhost:\d+ is an address/);
    assert.match(await a.run({ url: `${pages.base}/redirect-file` }), /Error: Refused: file: URLs are not fetched/);
  });

  void it('a redirect to another host is named, not followed', async () => {
    const out = await setup().run({ url: `${pages.base}/redirect-other` });
    assert.match(
      out,
      /redirects \(HTTP 307\) to https:\/\/elsewhere\.example\/collect\?data=1, on another host\. It was not followed/,
    );
  });

  void it('a 50 MB page: the first 5 MB, in parts, with a line saying so', async () => {
    const out = await setup({ timeoutMs: 20_000 }).run({ url: `${pages.base}/big` });
    assert.match(out, /The page is larger than the 5\.0 MB limit \(50\.0 MB\): only its first 5\.0 MB were read/);
    assert.match(out, /more characters\. Call fetch_url with the same url and start: 30000/);
  });

  void it('a page that never finishes is cut at the time limit, with a line saying so', async () => {
    const out = await setup({ timeoutMs: 400 }).run({ url: `${pages.base}/slow` });
    assert.match(out, /The first line arrived\./);
    assert.match(out, /still arriving after 0 s: it was cut there/);
  });

  void it('PDFs and images are refused with their kind; a 404 says so', async () => {
    const t = setup();
    assert.match(await t.run({ url: `${pages.base}/paper.pdf` }), /^Error: .* is a PDF document/);
    assert.match(await t.run({ url: `${pages.base}/logo.png` }), /^Error: .* is an image \(image\/png/);
    assert.match(await t.run({ url: `${pages.base}/missing` }), /HTTP 404: this is likely an error page/);
    assert.match(await t.run({ url: `${pages.base}/latin1` }), /café/);
  });
});
