// Randomised chat streams for the differential fault suite. A generated *answer* (text, reasoning,
// tool calls, finish, usage) is written in one of the wire dialects of wire-quirks.md, framed as
// SSE in one of its framings and cut into byte pieces. `modelResult` is a plain statement of the
// spec's accumulation rules, independent of src/api: the client must agree with it on every
// stream, and on an unshrunk stream the model must give back the generated answer.

export type Rand = () => number;

/** mulberry32: small, fast and seedable, so a printed seed reproduces a stream exactly. */
export function rng(seed: number): Rand {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
export const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

const WORDS = [
  'the',
  'gateway',
  'streams',
  'über',
  'naïve',
  '你好',
  '世界',
  '🚀',
  'emoji👍🏽',
  '"q"',
  'back\\slash',
  'tab\there',
  'line\nbreak',
  '```ts\nx\n```',
  '**b**',
  '<b>h</b>',
  '{"j":1}',
  'data: fake',
  '[DONE]',
  '\r\n',
  ': PING',
];

function words(r: Rand, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(pick(r, WORDS));
  return out.join(' ');
}

/** Cuts text into 1..maxLen code points (surrogate pairs stay whole, as servers send them). */
export function fragments(r: Rand, s: string, maxLen: number): string[] {
  const cps = Array.from(s);
  const out: string[] = [];
  for (let i = 0; i < cps.length;) {
    const n = int(r, 1, maxLen);
    out.push(cps.slice(i, i + n).join(''));
    i += n;
  }
  return out;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}
export interface Call {
  id: string;
  name: string;
  args: string;
}
export interface Answer {
  content: string;
  reasoning: string;
  calls: Call[];
  /** Absent: the stream was cut before any finish_reason (the client must say truncated). */
  finish?: string;
  usage?: Usage;
}

export type ToolStyle = 'canonical' | 'whole' | 'multi-per-chunk' | 'args-with-finish' | 'all-index-0' | 'no-index';
export interface Dialect {
  first: 'empty' | 'null' | 'refusal-null' | 'none';
  reasoningField: 'reasoning_content' | 'reasoning';
  tools: ToolStyle;
  /** How the relay names calls: as sent, one id repeated on every call, or no id at all. */
  ids: 'unique' | 'repeated' | 'empty';
  /** The tool's id and name on every argument fragment (some relays do). */
  namesRepeated: boolean;
  usage: 'separate' | 'separate-no-choices' | 'finish' | 'none';
  /** `usage: null` on every chunk but the usage chunk. */
  nullUsage: boolean;
  done: boolean;
}
export interface Framing {
  eol: '\n' | '\r\n' | '\r';
  comments: boolean;
  eventNames: boolean;
  noSpace: boolean;
  /** The JSON of an event split over two `data:` lines (joined with a newline, valid JSON). */
  splitData: boolean;
}
export interface StreamCase {
  seed: number;
  answer: Answer;
  dialect: Dialect;
  chunks: object[];
  framing: Framing;
  /** Sizes of the byte pieces the body arrives in. */
  maxPiece: number;
}

const ID = 'chatcmpl-faults';
export const MODEL = 'gw-faults';

/** A 200 event-stream answer whose body hands out `parts` one read at a time. */
export function responseOf(parts: Uint8Array[]): Response {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(ctrl) {
      if (i < parts.length) ctrl.enqueue(parts[i++]!);
      else ctrl.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}
const TOOL_NAMES = ['read_file', 'list_dir', 'search', 'run_tests'];

function chunk(choices: object[] | undefined, extra: object = {}): object {
  const c: Record<string, unknown> = {
    id: ID,
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: MODEL,
    ...extra,
  };
  if (choices) c.choices = choices;
  return c;
}

function genArgs(r: Rand): string {
  const obj: Record<string, unknown> = { path: `src/${words(r, 1).replace(/\s/g, '_')}.ts`, n: int(r, 0, 1e6) };
  if (r() < 0.5) obj.note = words(r, int(r, 0, 8));
  if (r() < 0.2) obj.nested = { list: [1, 'two', { three: 3 }], empty: {} };
  return JSON.stringify(obj);
}

function genAnswer(r: Rand, seed: number, dialect: Dialect, withTools: boolean, withReasoning: boolean): Answer {
  const calls: Call[] = [];
  if (withTools) {
    const n = dialect.tools === 'all-index-0' || dialect.tools === 'no-index' ? int(r, 2, 3) : int(r, 1, 3);
    for (let k = 0; k < n; k++) {
      const sent = `call_${seed.toString(36)}_${k}`;
      calls.push({
        id: dialect.ids === 'unique' ? sent : dialect.ids === 'repeated' ? 'call_0' : '',
        name: pick(r, TOOL_NAMES),
        args: genArgs(r),
      });
    }
  }
  const content = withTools && r() < 0.6 ? '' : words(r, int(r, 1, 40));
  const reasoning = withReasoning ? words(r, int(r, 1, 20)) : '';
  const finishes = withTools
    ? ['tool_calls', 'tool_calls', 'function_call', 'abort']
    : ['stop', 'stop', 'length', 'content_filter', 'error'];
  const finish = r() < 0.08 ? undefined : pick(r, finishes);
  const p = int(r, 1, 9000);
  const c = int(r, 1, 9000);
  const usage =
    dialect.usage === 'none' || finish === undefined
      ? undefined
      : { prompt_tokens: p, completion_tokens: c, total_tokens: p + c };
  return { content, reasoning, calls, finish, usage };
}

/** Writes the answer as chunks of the dialect. */
function encode(r: Rand, a: Answer, d: Dialect): object[] {
  const extra = d.nullUsage ? { usage: null } : {};
  const out: object[] = [];
  const delta = (dl: object, finish: string | null = null) =>
    chunk([{ index: 0, delta: dl, finish_reason: finish }], extra);
  if (d.first !== 'none') {
    out.push(
      delta(
        d.first === 'null'
          ? { role: 'assistant', content: null }
          : d.first === 'refusal-null'
            ? { role: 'assistant', content: '', refusal: null }
            : { role: 'assistant', content: '' },
      ),
    );
  }
  for (const f of a.reasoning ? fragments(r, a.reasoning, 8) : [])
    out.push(delta({ content: null, [d.reasoningField]: f }));
  for (const f of a.content ? fragments(r, a.content, 12) : []) out.push(delta({ content: f }));
  let held: object[] | undefined;
  const idx = (k: number): object =>
    d.tools === 'all-index-0' ? { index: 0 } : d.tools === 'no-index' ? {} : { index: k };
  const head = (c: Call): object => ({ id: c.id, type: 'function' });
  const tc = (entries: object[]) => delta({ tool_calls: entries });
  if (d.tools === 'whole') {
    for (const [k, c] of a.calls.entries())
      out.push(tc([{ index: k, ...head(c), function: { name: c.name, arguments: c.args } }]));
  } else if (d.tools === 'multi-per-chunk' && a.calls.length > 0) {
    out.push(tc(a.calls.map((c, k) => ({ index: k, ...head(c), function: { name: c.name, arguments: '' } }))));
    const pieces = a.calls.map((c) => fragments(r, c.args, 15));
    for (let step = 0; pieces.some((p) => step < p.length); step++) {
      out.push(tc(pieces.flatMap((p, k) => (step < p.length ? [{ index: k, function: { arguments: p[step] } }] : []))));
    }
  } else {
    for (const [k, c] of a.calls.entries()) {
      out.push(tc([{ ...idx(k), ...head(c), function: { name: c.name, arguments: '' } }]));
      const pieces = fragments(r, c.args, 9);
      if (d.tools === 'args-with-finish' && k === a.calls.length - 1 && a.finish !== undefined) {
        held = [{ ...idx(k), function: { arguments: pieces.pop()! } }];
      }
      const again = d.namesRepeated ? { ...head(c), function: { name: c.name } } : { function: {} };
      for (const p of pieces) out.push(tc([{ ...idx(k), ...again, function: { ...again.function, arguments: p } }]));
    }
  }
  if (a.finish !== undefined) {
    // vLLM: the last argument fragment rides on the finish chunk, and must be applied first.
    const fin = chunk(
      [{ index: 0, delta: held ? { tool_calls: held } : {}, finish_reason: a.finish }],
      d.usage === 'finish' ? { usage: a.usage } : extra,
    );
    out.push(fin);
    if (d.usage === 'separate') out.push(chunk([], { usage: a.usage }));
    if (d.usage === 'separate-no-choices') out.push(chunk(undefined, { usage: a.usage }));
  }
  return out;
}

export function generate(seed: number): StreamCase {
  const r = rng(seed);
  const withTools = r() < 0.45;
  const withReasoning = r() < 0.25;
  const tools = withTools
    ? pick(r, ['canonical', 'whole', 'multi-per-chunk', 'args-with-finish', 'all-index-0', 'no-index'] as const)
    : 'canonical';
  // Without a distinct id or index a call is told apart only by its name after complete
  // arguments; whole and multi-per-chunk calls always carry indexes.
  const ids = withTools ? pick(r, ['unique', 'unique', 'repeated', 'empty'] as const) : 'unique';
  const dialect: Dialect = {
    first: pick(r, ['empty', 'null', 'refusal-null', 'none'] as const),
    reasoningField: pick(r, ['reasoning_content', 'reasoning'] as const),
    tools,
    ids,
    namesRepeated:
      withTools &&
      (tools === 'canonical' || tools === 'all-index-0' || tools === 'no-index' || tools === 'args-with-finish') &&
      r() < 0.3,
    usage: pick(r, ['separate', 'separate-no-choices', 'finish', 'none'] as const),
    nullUsage: r() < 0.3,
    done: r() < 0.85,
  };
  const answer = genAnswer(r, seed, dialect, withTools, withReasoning);
  const chunks = encode(r, answer, dialect);
  const framing: Framing = {
    eol: pick(r, ['\n', '\n', '\r\n', '\r'] as const),
    comments: r() < 0.3,
    eventNames: r() < 0.2,
    noSpace: r() < 0.3,
    splitData: r() < 0.15,
  };
  // Tiny pieces cost a promise hop a byte in the stream reader: see `pieces` for their limit.
  const maxPiece = pick(r, [1, 3, 16, 64, 512, 512, 4096, 1 << 20, 1 << 20, 1 << 20]);
  return { seed, answer, dialect, chunks, framing, maxPiece };
}

/** The SSE text of a case; `r` decides where keep-alive comments go. */
export function sseText(chunks: readonly object[], f: Framing, done: boolean, r: Rand): string {
  const nl = f.eol;
  let out = '';
  for (const c of chunks) {
    if (f.comments && r() < 0.3) out += `${pick(r, [': PING', ':', ': OPENROUTER PROCESSING'])}${nl}${nl}`;
    if (f.eventNames) out += `event: message${nl}`;
    const json = JSON.stringify(c);
    const sp = f.noSpace ? '' : ' ';
    out += f.splitData
      ? `data:${sp}${json.slice(0, 1)}${nl}data:${sp}${json.slice(1)}${nl}${nl}`
      : `data:${sp}${json}${nl}${nl}`;
  }
  return done ? out + `data: [DONE]${nl}${nl}` : out;
}

/**
 * The body cut into pieces of 1..maxPiece bytes (splitting CR/LF pairs and UTF-8 sequences).
 * Pieces of a few bytes are kept to streams under 3 KB, so that 10,000 streams stay within a
 * minute; every boundary position is still reached across the corpus.
 */
export function pieces(r: Rand, bytes: Uint8Array, maxPiece: number): Uint8Array[] {
  if (maxPiece < 16 && bytes.length > 3000) maxPiece = 16;
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length;) {
    const n = int(r, 1, maxPiece);
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

// ---- the model: the spec's accumulation rules, stated plainly (quadratic where that is clearer)

export interface ModelResult {
  truncated: boolean;
  content: string;
  reasoning: string;
  /** Calls with the ids as the wire sent them (possibly empty or repeated). */
  calls: Call[];
  finish?: string;
  usage?: Usage;
}

interface WireToolDelta {
  index?: number | null;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}
interface WireChunk {
  choices?: Array<{
    index?: number;
    delta?: {
      content?: string | null;
      refusal?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: WireToolDelta[];
    } | null;
    finish_reason?: string | null;
  }>;
  usage?: Usage | null;
}

const completeJson = (s: string): boolean => {
  if (s.trim() === '') return false;
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};

/**
 * One tool-call delta belongs to the call at its index (or, without an index, the last call),
 * unless it starts another: a different id than that call's, or (when ids say nothing) a tool
 * name once that call's arguments are complete JSON, or another name before it has any.
 */
function applyTool(calls: Call[], byIndex: Map<number, number>, t: WireToolDelta): void {
  const index = t.index ?? undefined;
  const at = index === undefined ? calls.length - 1 : (byIndex.get(index) ?? -1);
  const cur = at >= 0 ? calls[at] : undefined;
  const id = t.id || '';
  const name = t.function?.name || '';
  const starts =
    !cur ||
    (id !== '' && cur.id !== '' && id !== cur.id) ||
    (name !== '' &&
      cur.name !== '' &&
      (id === '' || id === cur.id) &&
      ((name !== cur.name && cur.args.trim() === '') || completeJson(cur.args)));
  const target = starts ? calls.push({ id: '', name: '', args: '' }) - 1 : at;
  if (index !== undefined) byIndex.set(index, target);
  const call = calls[target]!;
  if (id && !call.id) call.id = id;
  if (name) call.name = name;
  call.args += t.function?.arguments ?? '';
}

export function modelResult(chunks: readonly object[]): ModelResult {
  const m: ModelResult = { truncated: true, content: '', reasoning: '', calls: [] };
  const byIndex = new Map<number, number>();
  for (const raw of chunks as WireChunk[]) {
    for (const ch of raw.choices ?? []) {
      if ((ch.index ?? 0) !== 0) continue;
      const d = ch.delta;
      if (d) {
        m.content += (d.content ?? '') + (d.refusal ?? '');
        m.reasoning += d.reasoning_content ?? d.reasoning ?? '';
        for (const t of d.tool_calls ?? []) applyTool(m.calls, byIndex, t);
      }
      if (ch.finish_reason) m.finish = ch.finish_reason;
    }
    if (raw.usage) m.usage = raw.usage;
  }
  m.truncated = m.finish === undefined;
  return m;
}
