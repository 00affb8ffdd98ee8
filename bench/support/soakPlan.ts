/**
 * The soak bench's script (bench/agent-soak.bench.ts): the workspace the agent works in, and
 * what each user turn asks the local gateway's model to do, as `#tools` scripts. The calls
 * rotate through reading (whole files and ranges), listing, searching, finding, editing and
 * writing files, now and then two calls at once; two turns hand a search to the built-in
 * Explore subagent on gw-mini; some turns get a message queued while they work.
 */

/** Source files the agent reads: about 3 KB each. */
const MODULES = 12;

export function workspaceFiles(): Record<string, string> {
  const files: Record<string, string> = {
    'README.md': `# Pipeline\n\nTwelve stages in src/m0.ts to src/m${MODULES - 1}.ts; src/log.ts keeps the change log.\n`,
    'docs/design.md': Array.from(
      { length: 40 },
      (_, i) => `- Stage ${i % MODULES} hands its output to stage ${(i + 1) % MODULES}; rule ${i}.`,
    ).join('\n'),
    'src/log.ts': '// The change log: one line per edit.\n// next\nexport const LOG = true;\n',
  };
  for (let k = 0; k < MODULES; k++) {
    const lines = Array.from(
      { length: 45 },
      (_, i) => `export function step${k}_${i}(input: number): number { return input * ${i + 1} + ${k}; }`,
    );
    files[`src/m${k}.ts`] = `// Stage ${k} of the pipeline.\n${lines.join('\n')}\n`;
  }
  return files;
}

type Call = { name: string; arguments: Record<string, unknown> };
type ScriptTurn = { calls: Call[] } | { text: string };

/** The calls of the agent's `n`th tool round (counted over the whole session). */
export function roundCalls(n: number): Call[] {
  const m = (k: number) => `src/m${k % MODULES}.ts`;
  switch (n % 9) {
    case 0:
      return [{ name: 'read_file', arguments: { path: m(n) } }];
    case 1:
      return [{ name: 'list_directory', arguments: { path: 'src' } }];
    case 2:
      return [{ name: 'search_text', arguments: { query: `step${n % MODULES}_1`, include: 'src/**/*.ts' } }];
    case 3:
      return [{ name: 'read_file', arguments: { path: m(n + 5), startLine: 10, endLine: 30 } }];
    case 4:
      return [
        { name: 'edit_file', arguments: { path: 'src/log.ts', oldText: '// next', newText: `// edit ${n}\n// next` } },
      ];
    case 5:
      return [{ name: 'find_files', arguments: { pattern: '**/*.md' } }];
    case 6:
      return [
        { name: 'read_file', arguments: { path: m(n + 1) } },
        { name: 'read_file', arguments: { path: 'docs/design.md' } },
      ];
    case 7:
      return [
        {
          name: 'write_file',
          arguments: { path: `notes/n${n}.md`, content: `# Note ${n}\n\nStage ${n % MODULES} checked.\n` },
        },
      ];
    default:
      return [{ name: 'read_file', arguments: { path: 'src/log.ts' } }];
  }
}

/** The closing answer of turn `t`: Markdown with a list and a code block, as agents answer. */
export function answer(t: number): string {
  return [
    `Turn ${t} is done. What I found:`,
    '',
    `- stage ${t % MODULES} multiplies its input and adds its own number;`,
    `- the log has a line for each edit so far;`,
    `- notes/ holds what I checked.`,
    '',
    '```ts',
    `export const checked${t} = step${t % MODULES}_0(${t});`,
    '```',
  ].join('\n');
}

export function script(turns: ScriptTurn[]): string {
  return `#tools ${JSON.stringify(turns)}`;
}

/** Requests one Explore run makes: five tool rounds and its findings. */
export const EXPLORE_REQUESTS = 6;

/** The `run_subagent` round: Explore on gw-mini, whose task carries its own script. */
export function exploreRound(t: number): ScriptTurn {
  const k = t % MODULES;
  const rounds: ScriptTurn[] = [
    { calls: [{ name: 'search_text', arguments: { query: `step${k}_0`, include: 'src/**/*.ts' } }] },
    { calls: [{ name: 'read_file', arguments: { path: `src/m${k}.ts` } }] },
    { calls: [{ name: 'list_directory', arguments: { path: 'src' } }] },
    { calls: [{ name: 'read_file', arguments: { path: 'docs/design.md' } }] },
    { calls: [{ name: 'find_files', arguments: { pattern: 'src/*.ts' } }] },
    {
      text: `Findings: step${k}_0 is defined in src/m${k}.ts and called from nowhere else; docs/design.md names stage ${k}.`,
    },
  ];
  const task = `Find where step${k}_0 is defined and who calls it. ${script(rounds)}`;
  return { calls: [{ name: 'run_subagent', arguments: { agent: 'Explore', model: 'gw-mini', task } }] };
}

/** Requests a queued message makes: two tool rounds and an answer. */
export const QUEUED_REQUESTS = 3;

export function queuedText(i: number): string {
  return `Also check the change log (queued message ${i}). ${script([
    { calls: [{ name: 'read_file', arguments: { path: 'src/log.ts' } }] },
    { calls: [{ name: 'search_text', arguments: { query: 'edit', include: 'src/log.ts' } }] },
    { text: `The log is in order (queued message ${i}).` },
  ])}`;
}

/** What happens in user turn `t` (0 is the warm-up) besides its tool rounds. */
export interface TurnEvents {
  /** The round whose calls are Explore's run. */
  exploreAt?: number;
  /** A message is queued when the turn's request with this number (1-based) starts. */
  queueAtRequest?: number;
  /** A message is queued while the turn's last answer streams (it is sent when the turn ends). */
  queueAtEnd?: boolean;
}

export function turnEvents(t: number): TurnEvents {
  if (t === 8 || t === 30) return { exploreAt: 4 };
  if (t === 5 || t === 17 || t === 26 || t === 40) return { queueAtRequest: 3 };
  if (t === 12 || t === 35) return { queueAtEnd: true };
  return {};
}

/** Turn `t`'s user message with `rounds` tool rounds (the calls from round number `first` on). */
export function turnText(t: number, rounds: number, first: number, ev: TurnEvents): string {
  const turns: ScriptTurn[] = [];
  for (let r = 0; r < rounds; r++) turns.push(r === ev.exploreAt ? exploreRound(t) : { calls: roundCalls(first + r) });
  turns.push({ text: answer(t) });
  return `Turn ${t}: go through the next stages and keep the log. ${script(turns)}`;
}
