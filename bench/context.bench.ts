// The context window's send path: a 200-turn tool session replayed against an 8k window.
// The session is a seeded recording (the same every run): 200 questions, each answered after
// 1-3 rounds of tool calls whose results are file reads of 200 to 30,000 characters, as a long
// agent session produces. Before every request of the replay the product fits the conversation
// to the window (compaction.ts: elide old tool results, summarise earlier turns, clamp); the
// server's count is the local gateway's stated rule (test/gateway/context.ts), fed back as
// usage to calibrate the estimate, as a real answer would. Prints tokens per request (max, p95),
// compactions, that nothing was dropped, and the time deciding and compacting takes (ms, the
// summary request excluded) against the time of building the unfitted request in the same run.
// Asserts nothing about time.
import { performance } from 'node:perf_hooks';
import type { ChatRequest, ToolDefinition } from '../src/api/chat/wire';
import { fitToWindow, type Fitted } from '../src/chat/context/core/compaction';
import { TokenEstimator, resolveModelLimits } from '../src/chat/context/core/contextWindow';
import { buildChatRequest, type RequestDefaults } from '../src/chat/conversation/core/request';
import { assembleSystemPrompt } from '../src/chat/prompt/core/systemPrompt';
import { rawTextTokens } from '../src/shared/tokens';
import { DEFAULT_CHAT_PARAMS } from '../src/shared/chatParams';
import type { Conversation } from '../src/shared/protocol';
import { countPromptTokens } from '../test/gateway/context';
import { mean, percentile, seededRandom } from './support/stats';

const TURNS = 200;
const WINDOW = 8192;

const CODE_LINES = [
  'export function handle(req: Request): Response {',
  '  const body = await req.json(); // 解析请求体',
  '  if (!body.ok) throw new Error(`bad request: ${body.reason}`);',
  '  return new Response(JSON.stringify({ ok: true }), { status: 200 });',
  '}',
  '// TODO: retry on 429 with Retry-After',
];

function fileText(r: () => number, chars: number): string {
  let s = '';
  while (s.length < chars) s += `${CODE_LINES[Math.floor(r() * CODE_LINES.length)]}\n`;
  return s.slice(0, chars);
}

const TOOLS: ToolDefinition[] = ['read_file', 'list_directory', 'search_text', 'write_file', 'run_command'].map(
  (name) => ({
    type: 'function',
    function: {
      name,
      description: `The ${name.replace('_', ' ')} tool of the workspace: arguments are checked, results are plain text.`,
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  }),
);

interface Step {
  /** Messages appended before the request is made. */
  add: Conversation['messages'];
}

/** The recording: the messages in order, cut into the points where a request is sent. */
function record(): Step[] {
  const r = seededRandom(20261123);
  const steps: Step[] = [];
  let n = 0;
  const t = () => ++n;
  for (let turn = 0; turn < TURNS; turn++) {
    const q = `Turn ${turn}: ${fileText(r, 50 + Math.floor(r() * 600))}`;
    steps.push({ add: [{ id: `u${turn}`, role: 'user', text: q, images: [], contexts: [], createdAt: t() }] });
    const rounds = 1 + Math.floor(r() * 3);
    for (let k = 0; k < rounds; k++) {
      const calls = 1 + Math.floor(r() * 2);
      const callIds = Array.from({ length: calls }, (_, j) => `c${turn}_${k}_${j}`);
      const add: Conversation['messages'] = [
        {
          id: `a${turn}_${k}`,
          role: 'assistant',
          content: '',
          status: 'done',
          requestedModel: 'bench',
          createdAt: t(),
          toolCalls: callIds.map((id) => ({
            id,
            type: 'function' as const,
            function: { name: 'read_file', arguments: JSON.stringify({ path: `src/file${id}.ts` }) },
          })),
        },
      ];
      for (const id of callIds) {
        // Mostly small reads, some whole files (up to the tools' 30,000-character cap).
        const size = r() < 0.2 ? 10_000 + Math.floor(r() * 20_000) : 200 + Math.floor(r() * 3000);
        add.push({
          id: `t${id}`,
          role: 'tool',
          toolCallId: id,
          name: 'read_file',
          content: fileText(r, size),
          createdAt: t(),
        });
      }
      steps.push({ add });
    }
    steps.push({
      add: [
        {
          id: `f${turn}`,
          role: 'assistant',
          content: `Done with turn ${turn}. ${fileText(r, 100 + Math.floor(r() * 500))}`,
          status: 'done',
          requestedModel: 'bench',
          createdAt: t(),
        },
      ],
    });
  }
  return steps;
}

async function replay(steps: Step[]) {
  const conv: Conversation = {
    id: 'bench',
    title: '',
    createdAt: 0,
    updatedAt: 0,
    model: 'bench',
    params: {},
    messages: [],
  };
  const defaults: RequestDefaults = {
    model: 'bench',
    systemPrompt: 'You are a coding assistant in VS Code. Use the tools to read and change the workspace.',
    params: { ...DEFAULT_CHAT_PARAMS },
  };
  const limits = resolveModelLimits({ record: { id: 'bench', context_length: WINDOW } });
  const estimator = new TokenEstimator();
  const server: number[] = [];
  const fitMs: number[] = [];
  const buildMs: number[] = [];
  const estErr: number[] = [];
  let summaries = 0;
  let summaryMs = 0;
  let elided = 0;
  let overWindow = 0;
  let latestMissing = 0;
  for (const [i, step] of steps.entries()) {
    conv.messages.push(...step.add);
    // Only requests: the final answer is what the last request got back.
    if (step.add[0]?.role === 'assistant' && !step.add[0].toolCalls) continue;
    const b0 = performance.now();
    buildChatRequest(conv, defaults, { tools: TOOLS });
    buildMs.push(performance.now() - b0);
    let inSummary = 0;
    const t0 = performance.now();
    const fitted: Fitted = await fitToWindow({
      conversation: conv,
      defaults,
      build: { tools: TOOLS },
      limits,
      estimator,
      signal: new AbortController().signal,
      now: () => i,
      summarise: async (req: ChatRequest) => {
        const s0 = performance.now();
        summaries++;
        // The model's summary: about 300 words of the transcript's end.
        const text = JSON.stringify(req.messages.at(-1)?.content ?? '').slice(-1800);
        inSummary += performance.now() - s0;
        return `Summary: ${text}`;
      },
    });
    const ms = performance.now() - t0 - inSummary;
    summaryMs += inSummary;
    fitMs.push(ms);
    elided += fitted.elided;
    const counted = countPromptTokens(fitted.req.messages as never, fitted.req.tools);
    server.push(counted);
    estErr.push((fitted.prompt - counted) / counted);
    if (counted + fitted.reserve > WINDOW) overWindow++;
    // The latest question is always sent whole.
    const lastUser = [...conv.messages].reverse().find((m) => m.role === 'user');
    if (lastUser?.role === 'user' && !fitted.req.messages.some((m) => m.role === 'user' && m.content === lastUser.text))
      latestMissing++;
    // The answer's usage: the server's own count calibrates the next estimate.
    estimator.calibrate(fitted.req, counted);
  }
  const all = steps.flatMap((s) => s.add);
  const dropped = all.filter((m, i) => JSON.stringify(conv.messages[i]) !== JSON.stringify(m)).length;
  return {
    server,
    fitMs,
    buildMs,
    summaries,
    summaryMs,
    elided,
    overWindow,
    latestMissing,
    estErr,
    dropped,
    stored: conv.messages.length,
    recorded: all.length,
  };
}

const steps = record();
const unfitted = (() => {
  const c: Conversation = {
    id: 'x',
    title: '',
    createdAt: 0,
    updatedAt: 0,
    model: 'bench',
    params: {},
    messages: steps.flatMap((s) => s.add),
  };
  const req = buildChatRequest(
    c,
    {
      model: 'bench',
      systemPrompt: '',
      params: { ...DEFAULT_CHAT_PARAMS },
    },
    { tools: TOOLS },
  );
  return countPromptTokens(req.messages as never, req.tools);
})();
/**
 * The skills section (issue 37): 30 skills whose descriptions are at the format's 1,024-character
 * limit, English and CJK; each line is cut so the system prompt grows by at most 40 tokens a skill.
 */
function skillsGrowth(): { growth: number; perSkill: number } {
  const skills = Array.from({ length: 30 }, (_, i) => ({
    name: `skill-${i}-for-the-bench`,
    description: (i % 5 === 0 ? '处理PDF表单并填写字段。' : `Use when asked to create or run browser tests (${i}). `)
      .repeat(60)
      .slice(0, 1024),
  }));
  const base = { environment: undefined, rules: [], rulesBlocked: false };
  const growth =
    rawTextTokens(assembleSystemPrompt({ ...base, skills }, {}, '')) -
    rawTextTokens(assembleSystemPrompt(base, {}, ''));
  return { growth, perSkill: growth / skills.length };
}

async function main(): Promise<void> {
  // A first pass warms the JIT; the second is measured.
  await replay(steps);
  const r = await replay(steps);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  console.log(
    `recorded session: ${TURNS} turns, ${r.server.length} requests, ${r.recorded} messages, ${unfitted} tokens unfitted`,
  );
  console.log(
    `window ${WINDOW}: prompt tokens per request (gateway rule) max ${Math.max(...r.server)}, p95 ${percentile(r.server, 95)}, mean ${Math.round(mean(r.server))}`,
  );
  console.log(`requests past the window (prompt + reserve): ${r.overWindow}`);
  console.log(`compactions: ${r.summaries} summaries, ${r.elided} tool results elided (over all requests)`);
  console.log(
    `nothing dropped: ${r.dropped === 0 && r.stored === r.recorded ? 'yes' : 'NO'} (${r.stored}/${r.recorded} messages stored unchanged; latest question missing from ${r.latestMissing} requests)`,
  );
  console.log(
    `estimate vs gateway count: mean ${(mean(r.estErr) * 100).toFixed(1)}%, worst ${(Math.max(...r.estErr.map(Math.abs)) * 100).toFixed(1)}%`,
  );
  console.log(
    `deciding + compacting per request (summary request excluded): mean ${mean(r.fitMs).toFixed(3)} ms, p95 ${percentile(r.fitMs, 95).toFixed(3)} ms, max ${Math.max(...r.fitMs).toFixed(3)} ms, total ${sum(r.fitMs).toFixed(1)} ms`,
  );
  console.log(
    `baseline (building the unfitted request): mean ${mean(r.buildMs).toFixed(3)} ms; ratio ${(mean(r.fitMs) / mean(r.buildMs)).toFixed(2)}x`,
  );
  const skills = skillsGrowth();
  console.log(
    `system prompt with 30 skills: +${skills.growth} tokens (${skills.perSkill.toFixed(1)} per skill; bound 40)`,
  );
  if (r.overWindow > 0 || r.dropped > 0 || r.latestMissing > 0 || skills.perSkill > 40) process.exitCode = 1;
}

void main();
