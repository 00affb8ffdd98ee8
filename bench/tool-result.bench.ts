/**
 * A 10 MB tool result (issue 25 item 5): what reaches the request and the webview, and what it
 * costs the host, against a 10 KB result measured in the same run. Two sources, each through the
 * real ToolRunner: `run_command` printing 10 MB (the real shell, the real output cap), and an
 * outside tool (a language-model tool of another extension) that returns a 10 MB string. Prints
 * characters in the model's message and in the card, time and heap growth; asserts nothing about
 * time. Bounded: a few seconds.
 */
import { performance } from 'node:perf_hooks';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { builtinTools } from '../src/chat/tools/core/builtins';
import { ToolRunner, type Tool, type ToolCardUpdate } from '../src/chat/tools/core/runner';
import { nodeToolHost } from '../test/support/nodeToolHost';
import { median } from './support/stats';

const BIG = 10 * 1024 * 1024;
const SMALL = 10 * 1024;
const RUNS = 3;

/** An outside tool that returns `size` characters. */
function outsideTool(size: number): Tool {
  return {
    definition: {
      type: 'function',
      function: { name: 'dump', description: 'returns a lot', parameters: { type: 'object', properties: {} } },
    },
    readOnly: true,
    prepare: () => Promise.resolve({ run: () => Promise.resolve({ content: 'x'.repeat(size) }) }),
  };
}

interface Figure {
  ms: number;
  heapMb: number;
  request: number;
  card: number;
}

async function once(ws: string, kind: 'command' | 'outside', size: number): Promise<Figure> {
  const cards: ToolCardUpdate[] = [];
  const runner = new ToolRunner({
    tools: () =>
      kind === 'command'
        ? builtinTools(nodeToolHost([{ name: 'ws', path: ws }], { commandTimeoutMs: 20_000 }))
        : [outsideTool(size)],
    approve: () => Promise.resolve('allow'),
    trust: { isTrusted: () => true, trust: () => undefined },
    onUpdate: (u) => cards.push(u),
  });
  const args =
    kind === 'command' ? { command: `head -c ${size} /dev/zero | tr '\\0' 'a'` } : ({} as Record<string, unknown>);
  const name = kind === 'command' ? 'run_command' : 'dump';
  (globalThis as { gc?: () => void }).gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const [m] = await runner.execute(
    [{ id: 'c1', type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    { signal: new AbortController().signal, conversationId: 'bench' },
  );
  const ms = performance.now() - t0;
  const heapMb = (process.memoryUsage().heapUsed - heap0) / 1024 / 1024;
  const done = cards.filter((c) => c.state === 'done').at(-1);
  return { ms, heapMb, request: m?.content.length ?? NaN, card: done?.resultPreview?.length ?? NaN };
}

async function main(): Promise<void> {
  const ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gws-bench-tool-')));
  try {
    for (const kind of ['command', 'outside'] as const) {
      const by: Record<number, Figure[]> = { [SMALL]: [], [BIG]: [] };
      for (let r = 0; r < RUNS; r++) for (const size of [SMALL, BIG]) by[size]?.push(await once(ws, kind, size));
      const line = (size: number): string => {
        const f = by[size] ?? [];
        return `${size / 1024} KB: ${median(f.map((x) => x.ms)).toFixed(1)} ms, heap +${median(f.map((x) => x.heapMb)).toFixed(1)} MB, ${f[0]?.request} characters to the model, ${f[0]?.card} to the card`;
      };
      const ratio = median((by[BIG] ?? []).map((x) => x.ms)) / median((by[SMALL] ?? []).map((x) => x.ms));
      console.log(
        `${kind === 'command' ? 'run_command printing' : 'an outside tool returning'} ${line(BIG)}; ${line(SMALL)}; time 10 MB / 10 KB ${ratio.toFixed(1)}x`,
      );
    }
    console.log('goal: clipped before the webview (card) and the request (model): both bounded whatever the size');
  } finally {
    await fs.rm(ws, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
