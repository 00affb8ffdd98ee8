// The prompt's prefix stays the same from one request to the next (issue 39 item 5): through the
// chat's real turn loop and tools against the local gateway, with an editor that changes at
// every request, each request starts with everything the one before sent (its editor state
// aside), so a relay's prompt cache can serve it; and the gateway's simulated cache does.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { makeAgentWorkspace, runAgentSession } from '../../../../support/agentSession';
import { useGateway } from '../../../../support/helpers';

const gw = useGateway({ models: { 'claude-sonnet-4-5': 'gw-chat', 'gpt-5-mini': 'gw-chat' } });
let ws = '';
before(async () => (ws = await makeAgentWorkspace()));
after(() => fs.rm(ws, { recursive: true, force: true }));

type Body = { messages: { role: string; content: unknown }[]; tools?: unknown[] };
const bodies = () =>
  gw
    .requests()
    .filter((r) => r.path === '/v1/chat/completions')
    .map((r) => r.body as Body);
const STATE = '# Editor state';
/** The JSON of a message without its breakpoints (they move to the newest turns) and without the editor state. */
const plain = (m: unknown): string =>
  JSON.stringify(m, (k, v: unknown) => {
    if (k === 'cache_control') return undefined;
    if (Array.isArray(v))
      return v.filter(
        (p: unknown) =>
          !(typeof (p as { text?: unknown })?.text === 'string' && (p as { text: string }).text.startsWith(STATE)),
      );
    return typeof v === 'string' && v.includes(`\n\n${STATE}`) ? v.slice(0, v.indexOf(`\n\n${STATE}`)) : v;
  });
const isState = (m: { role: string; content: unknown }) =>
  m.role === 'user' && JSON.stringify(m.content).startsWith('"# Editor state');

for (const model of ['gpt-5-mini', 'claude-sonnet-4-5']) {
  void describe(`${model}: each request extends the one before`, () => {
    void it('the system prompt and the tools never change; the history is sent again as it was', async () => {
      await runAgentSession({ gw, workspace: ws, model, userTurns: 2, rounds: 2 });
      const all = bodies();
      assert.equal(all.length, 6);
      const states = new Set<string>();
      all.forEach((b, i) => {
        assert.equal(plain(b.messages[0]), plain(all[0]!.messages[0]), `request ${i + 1}: the same system prompt`);
        assert.ok(!JSON.stringify(b.messages[0]).includes('Active file'), 'no editor state in it');
        assert.equal(plain(b.tools), plain(all[0]!.tools));
        const text = JSON.stringify(b.messages.at(-1));
        states.add(/Active file: [^,]*, cursor at line \d+/.exec(text)?.[0] ?? 'none');
        if (i === 0) return;
        const before = all[i - 1]!.messages.filter((m) => !isState(m));
        before.forEach((m, j) =>
          assert.equal(plain(b.messages[j]), plain(m), `request ${i + 1}, message ${j}: as request ${i} sent it`),
        );
      });
      assert.equal(states.size, 6, 'the editor state of each request is its own, and the last thing sent');
    });
  });
}

void describe("the gateway's cache serves the stable prefix", () => {
  const cachedOf = (u: object) =>
    (u as { prompt_tokens_details?: { cached_tokens?: number } }).prompt_tokens_details?.cached_tokens ?? 0;

  void it('Claude: from the third request on, at least 80% of the prompt comes from the cache', async () => {
    gw.setPromptCache({ enabled: true });
    try {
      const { usages } = await runAgentSession({
        gw,
        workspace: ws,
        model: 'claude-sonnet-4-5',
        userTurns: 2,
        rounds: 3,
      });
      const later = usages.slice(2);
      const prompt = later.reduce((n, u) => n + u.prompt_tokens, 0);
      const cached = later.reduce((n, u) => n + cachedOf(u), 0);
      assert.ok(cached / prompt >= 0.8, `${cached} of ${prompt} prompt tokens cached`);
    } finally {
      gw.setPromptCache({ enabled: false });
    }
  });

  void it("OpenAI: each request reads every whole block of the one before but its last (the editor state's)", async () => {
    gw.setPromptCache({ enabled: true });
    try {
      const { usages } = await runAgentSession({ gw, workspace: ws, model: 'gpt-5-mini', userTurns: 2, rounds: 3 });
      usages.forEach((u, i) => {
        if (i === 0) return assert.equal(cachedOf(u), 0);
        const blocks = Math.floor(usages[i - 1]!.prompt_tokens / 1024) - 1;
        assert.ok(cachedOf(u) >= blocks * 1024, `request ${i + 1}: ${cachedOf(u)} cached, ${blocks} blocks before`);
      });
    } finally {
      gw.setPromptCache({ enabled: false });
    }
  });
});
