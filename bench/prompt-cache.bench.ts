// Prompt caching (issue 39 item 5): a scripted agent session of 20 requests (4 user messages,
// each a loop of 4 `read_file` calls and a closing answer: test/support/agentSession.ts) through
// the chat's real turn loop, tools and client against the local gateway's simulated prompt cache
// (test/gateway/promptCache.ts: a Claude id caches at `cache_control` marks only, any other id
// every 1,024-token block of a stable prefix by itself), with an editor that changes at every
// request. For a Claude-family and an OpenAI-family model it runs the session three ways: as
// built (the family's default), with caching off (`promptCache: "off"` in models.overrides), and
// with the editor state in the system prompt as before issue 39 (caching on). Printed per run:
// the prompt tokens served from the cache from the third request on (goal: at least 80% as
// built), and the session's cost at list prices (cache reads at their price, Claude's cache
// writes at 1.25x input) against the run with caching off. Asserts nothing.
import { promises as fs } from 'node:fs';
import type { CacheSetting } from '../src/api/chat/promptCache';
import { defaultCacheMode, readCachedTokens } from '../src/api/chat/promptCache';
import type { Usage } from '../src/api/chat/wire';
import { startGateway } from '../test/gateway/server';
import { makeAgentWorkspace, runAgentSession } from '../test/support/agentSession';

const USER_TURNS = 4;
const ROUNDS = 4;

/** List prices in dollars per million tokens (Anthropic's and OpenAI's pages, November 2026). */
const PRICES: Record<string, { input: number; cached: number; write: number; output: number }> = {
  'claude-sonnet-4-5': { input: 3, cached: 0.3, write: 3.75, output: 15 },
  'gpt-5-mini': { input: 0.25, cached: 0.025, write: 0.25, output: 2 },
};

interface Figures {
  requests: number;
  prompt: number;
  cached: number;
  /** From the third request on. */
  laterPrompt: number;
  laterCached: number;
  usd: number;
}

function figures(model: string, usages: Usage[]): Figures {
  const p = PRICES[model]!;
  const f: Figures = { requests: usages.length, prompt: 0, cached: 0, laterPrompt: 0, laterCached: 0, usd: 0 };
  usages.forEach((u, i) => {
    const cached = Math.min(u.prompt_tokens, readCachedTokens(u) ?? 0);
    const written = Math.min(u.prompt_tokens - cached, Number(u.cache_creation_input_tokens ?? 0) || 0);
    f.prompt += u.prompt_tokens;
    f.cached += cached;
    if (i >= 2) {
      f.laterPrompt += u.prompt_tokens;
      f.laterCached += cached;
    }
    f.usd +=
      ((u.prompt_tokens - cached - written) * p.input +
        cached * p.cached +
        written * p.write +
        u.completion_tokens * p.output) /
      1e6;
  });
  return f;
}

const pct = (a: number, b: number) => (b > 0 ? `${((a / b) * 100).toFixed(1)}%` : '-');

async function main(): Promise<void> {
  const gw = await startGateway({
    models: { 'claude-sonnet-4-5': 'gw-chat', 'gpt-5-mini': 'gw-chat' },
    promptCache: { enabled: true },
  });
  const workspace = await makeAgentWorkspace();
  try {
    for (const model of Object.keys(PRICES)) {
      const runs: [string, { promptCache?: CacheSetting; volatileSystem?: boolean }][] = [
        ['as built', {}],
        ['caching off', { promptCache: 'off' }],
        ['editor state in the system prompt (before)', { volatileSystem: true }],
      ];
      const out: [string, Figures][] = [];
      for (const [label, o] of runs) {
        gw.setPromptCache({ enabled: false });
        gw.setPromptCache({ enabled: true }); // a cold cache for each run
        const { usages } = await runAgentSession({ gw, workspace, model, userTurns: USER_TURNS, rounds: ROUNDS, ...o });
        out.push([label, figures(model, usages)]);
      }
      const off = out[1]![1];
      console.log(
        `\n${model} (${out[0]![1].requests} requests: ${USER_TURNS} user messages x ${ROUNDS} tool rounds + answer)`,
      );
      for (const [label, f] of out) {
        console.log(
          `  ${label.padEnd(44)} cached from request 3 on: ${pct(f.laterCached, f.laterPrompt).padStart(6)} ` +
            `(${f.laterCached} of ${f.laterPrompt} tokens); whole session ${pct(f.cached, f.prompt)}; ` +
            `cost $${f.usd.toFixed(4)} = ${pct(f.usd, off.usd)} of caching off`,
        );
      }
      if (defaultCacheMode(model) === 'prompt_cache_key')
        console.log(
          '  (OpenAI caches a stable prefix by itself: "caching off" only leaves out prompt_cache_key, which routes\n' +
            '   requests to the same cache and which the simulation does not model; what pays is the stable prefix)',
        );
      const built = out[0]![1];
      const share = built.laterCached / built.laterPrompt;
      console.log(
        `  goal (>= 80% cached from request 3 on, as built): ${(share * 100).toFixed(1)}% ${share >= 0.8 ? 'met' : 'NOT met'}; ` +
          `saving against caching off: $${(off.usd - built.usd).toFixed(4)} (${pct(off.usd - built.usd, off.usd)})`,
      );
    }
  } finally {
    await gw.close();
    await fs.rm(workspace, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
