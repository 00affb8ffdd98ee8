// Randomised Responses API streams (issue 22) for the differential suite: a generated answer
// (text, reasoning summary parts, function calls, a terminal event, usage) written as the events
// OpenAI documents, in the variants relays send (text or arguments only on the finished item, only
// in `response.completed`, deltas without item ids, `[DONE]` after the end, framing), then cut
// into byte pieces. `modelResult` states the accumulation rules plainly, without src/api.
import { fragments, int, pick, rng, type Rand } from './streamModel';

const WORDS = [
  'the',
  'gateway',
  'über',
  '你好',
  '🚀',
  '"q"',
  'back\\slash',
  'line\nbreak',
  '```ts\nx\n```',
  '<b>',
  '{"j":1}',
  'data: x',
  '[DONE]',
  '\r\n',
  ': PING',
  '</think>',
];
const words = (r: Rand, n: number) => Array.from({ length: n }, () => pick(r, WORDS)).join(' ');
const TOOLS = ['read_file', 'list_dir', 'search'];

export interface RCall {
  id: string;
  name: string;
  args: string;
}
export interface RAnswer {
  content: string;
  /** Summary parts of one reasoning item. */
  parts: string[];
  calls: RCall[];
  /** Absent: the stream stops before any terminal event. */
  terminal?: 'completed' | 'incomplete';
  usage?: { input_tokens: number; output_tokens: number; total_tokens: number };
  /** The answer's text opens with a `<think>` block holding this (a relay's model that tags). */
  thinkTag?: string;
}
export interface RStyle {
  text: 'deltas' | 'done-only' | 'completed-only';
  args: 'deltas' | 'done-event' | 'added-whole' | 'item-done';
  itemIds: boolean;
  encrypted: boolean;
  doneMarker: boolean;
  eventNames: boolean;
  comments: boolean;
  eol: '\n' | '\r\n';
  maxPiece: number;
}
export interface RCase {
  seed: number;
  answer: RAnswer;
  style: RStyle;
  events: object[];
}

function genAnswer(r: Rand, seed: number): RAnswer {
  const calls: RCall[] = [];
  if (r() < 0.45)
    for (let k = int(r, 1, 3); k > 0; k--)
      calls.push({
        id: `call_${seed.toString(36)}_${k}`,
        name: pick(r, TOOLS),
        args: JSON.stringify({
          path: words(r, 1),
          n: int(r, 0, 999),
          ...(r() < 0.5 ? { note: words(r, int(r, 0, 6)) } : {}),
        }),
      });
  const content = calls.length > 0 && r() < 0.5 ? '' : words(r, int(r, 1, 30));
  const parts = r() < 0.35 ? Array.from({ length: int(r, 1, 3) }, () => words(r, int(r, 1, 10))) : [];
  const thinkTag = r() < 0.15 ? words(r, int(r, 1, 8)).replace(/<\/think>/g, '') : undefined;
  const terminal = r() < 0.1 ? undefined : r() < 0.85 ? 'completed' : 'incomplete';
  const i = int(r, 1, 9000);
  const o = int(r, 1, 9000);
  const usage = terminal && r() < 0.9 ? { input_tokens: i, output_tokens: o, total_tokens: i + o } : undefined;
  return { content, parts, calls, terminal, usage, thinkTag };
}

function encode(r: Rand, a: RAnswer, s: RStyle): object[] {
  const out: object[] = [];
  const ev = (type: string, f: object) => out.push({ type, sequence_number: out.length, ...f });
  const id = (x: string) => (s.itemIds ? { item_id: x } : {});
  const head = { id: 'resp_f', object: 'response', model: 'gw-faults', status: 'in_progress', output: [] };
  ev('response.created', { response: head });
  if (r() < 0.5) ev('response.in_progress', { response: head });
  const text = (a.thinkTag !== undefined ? `<think>${a.thinkTag}</think>\n\n` : '') + a.content;
  const items: Array<Record<string, unknown>> = [];
  let oi = 0;
  if (a.parts.length > 0) {
    const item = {
      type: 'reasoning',
      id: 'rs_1',
      summary: a.parts.map((t) => ({ type: 'summary_text', text: t })),
      ...(s.encrypted ? { encrypted_content: 'ENC' } : {}),
    };
    items.push(item);
    if (s.text !== 'completed-only') {
      ev('response.output_item.added', { output_index: oi, item: { type: 'reasoning', id: 'rs_1', summary: [] } });
      if (s.text === 'deltas')
        a.parts.forEach((p, k) => {
          for (const f of fragments(r, p, 7))
            ev('response.reasoning_summary_text.delta', {
              item_id: 'rs_1',
              output_index: oi,
              summary_index: k,
              delta: f,
            });
        });
      ev('response.output_item.done', { output_index: oi, item });
    }
    oi++;
  }
  if (text !== '' || a.calls.length === 0) {
    const item = {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      content: [{ type: 'output_text', text, annotations: [] }],
    };
    items.push(item);
    if (s.text !== 'completed-only') {
      ev('response.output_item.added', { output_index: oi, item: { ...item, content: [] } });
      if (s.text === 'deltas')
        for (const f of text === '' ? [] : fragments(r, text, 9))
          ev('response.output_text.delta', { ...id('msg_1'), output_index: oi, content_index: 0, delta: f });
      ev('response.output_text.done', { ...id('msg_1'), output_index: oi, content_index: 0, text });
      ev('response.output_item.done', { output_index: oi, item });
    }
    oi++;
  }
  a.calls.forEach((c, k) => {
    const itemId = `fc_${k}`;
    const item = { type: 'function_call', id: itemId, call_id: c.id, name: c.name, arguments: c.args };
    items.push(item);
    if (s.text === 'completed-only') return;
    ev('response.output_item.added', {
      output_index: oi,
      item: { ...item, arguments: s.args === 'added-whole' ? c.args : '' },
    });
    if (s.args === 'deltas')
      for (const f of fragments(r, c.args, 8))
        ev('response.function_call_arguments.delta', { ...id(itemId), output_index: oi, delta: f });
    if (s.args === 'deltas' || s.args === 'done-event')
      ev('response.function_call_arguments.done', { ...id(itemId), output_index: oi, arguments: c.args });
    ev('response.output_item.done', { output_index: oi, item });
    oi++;
  });
  if (a.terminal)
    ev(`response.${a.terminal}`, {
      response: {
        ...head,
        status: a.terminal,
        output: items,
        incomplete_details: a.terminal === 'incomplete' ? { reason: 'max_output_tokens' } : null,
        ...(a.usage ? { usage: a.usage } : {}),
      },
    });
  return out;
}

export function generateResponses(seed: number): RCase {
  const r = rng(seed);
  const answer = genAnswer(r, seed);
  const style: RStyle = {
    text: pick(r, ['deltas', 'deltas', 'deltas', 'done-only', 'completed-only'] as const),
    args: pick(r, ['deltas', 'deltas', 'done-event', 'added-whole', 'item-done'] as const),
    itemIds: r() < 0.85,
    encrypted: r() < 0.5,
    doneMarker: r() < 0.3,
    eventNames: r() < 0.6,
    comments: r() < 0.3,
    eol: pick(r, ['\n', '\r\n'] as const),
    maxPiece: pick(r, [3, 16, 64, 512, 4096, 1 << 20, 1 << 20, 1 << 20]),
  };
  return { seed, answer, style, events: encode(r, answer, style) };
}

export function responsesSse(c: RCase, r: Rand): string {
  const nl = c.style.eol;
  let out = '';
  for (const e of c.events) {
    if (c.style.comments && r() < 0.3) out += `: keep-alive${nl}${nl}`;
    if (c.style.eventNames) out += `event: ${(e as { type: string }).type}${nl}`;
    out += `data: ${JSON.stringify(e)}${nl}${nl}`;
  }
  return c.style.doneMarker ? `${out}data: [DONE]${nl}${nl}` : out;
}

// ---- the model

export interface RModel {
  truncated: boolean;
  content: string;
  reasoning: string;
  calls: RCall[];
  finish?: string;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  encrypted: number;
}

type Ev = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The rules: the answer's text is every `output_text` delta, or, when no delta came at all,
 * the text of each finished message item (from `output_item.done` or the final output list); a
 * `<think>` block opening that text is reasoning and the whitespace after it is dropped. Reasoning
 * is the summary deltas (a new part of the same item after a blank line), or, when no delta came,
 * each finished item's parts joined by blank lines. A call's arguments are its deltas, completed by
 * the `done` event or finished item when they had fewer. `completed` finishes with `tool_calls` or
 * `stop`, `incomplete` with `length`; without either the answer is truncated.
 */
export function modelResponses(events: readonly object[]): RModel {
  let raw = '';
  let reasoning = '';
  const spoken = new Set<string>();
  const reasoned = new Set<string>();
  const calls: Array<RCall & { item: string }> = [];
  let lastPart: { item: string; part: number } | undefined;
  let encrypted = 0;
  const m: RModel = { truncated: true, content: '', reasoning: '', calls: [], encrypted: 0 };
  const callOf = (item: string | undefined): (RCall & { item: string }) | undefined =>
    (item ? calls.find((c) => c.item === item) : undefined) ?? calls[calls.length - 1];
  const settle = (c: RCall, final: string) => {
    if (c.args === '' || final.startsWith(c.args)) c.args = final;
  };
  const finished = (it: Ev) => {
    if (it.type === 'message' && !spoken.has('delta') && !spoken.has(it.id)) {
      spoken.add(it.id);
      raw += it.content.map((p: Ev) => p.text ?? '').join('');
    } else if (it.type === 'reasoning') {
      if (it.encrypted_content && !reasoned.has(`enc:${it.id}`)) {
        reasoned.add(`enc:${it.id}`);
        encrypted++;
      }
      if (!reasoned.has('delta') && !reasoned.has(it.id)) {
        reasoned.add(it.id);
        reasoning += it.summary
          .map((p: Ev) => p.text)
          .filter((t: string) => t !== '')
          .join('\n\n');
      }
    } else if (it.type === 'function_call') {
      let c = calls.find((x) => x.item === it.id);
      if (!c) calls.push((c = { item: it.id, id: it.call_id, name: it.name, args: '' }));
      settle(c, it.arguments);
    }
  };
  for (const e of events as Ev[]) {
    switch (e.type) {
      case 'response.output_text.delta':
        spoken.add('delta');
        raw += e.delta;
        break;
      case 'response.reasoning_summary_text.delta':
        reasoned.add('delta');
        if (lastPart && lastPart.item === e.item_id && lastPart.part !== e.summary_index && reasoning !== '')
          reasoning += '\n\n';
        lastPart = { item: e.item_id, part: e.summary_index };
        reasoning += e.delta;
        break;
      case 'response.output_item.added':
        if (e.item.type === 'function_call')
          calls.push({ item: e.item.id, id: e.item.call_id, name: e.item.name, args: e.item.arguments ?? '' });
        break;
      case 'response.function_call_arguments.delta':
        callOf(e.item_id)!.args += e.delta;
        break;
      case 'response.function_call_arguments.done':
        settle(callOf(e.item_id)!, e.arguments);
        break;
      case 'response.output_item.done':
        finished(e.item);
        break;
      case 'response.completed':
      case 'response.incomplete':
        for (const it of e.response.output) finished(it);
        m.truncated = false;
        m.finish = e.type === 'response.incomplete' ? 'length' : calls.length > 0 ? 'tool_calls' : 'stop';
        if (e.response.usage) {
          const u = e.response.usage;
          m.usage = { prompt_tokens: u.input_tokens, completion_tokens: u.output_tokens, total_tokens: u.total_tokens };
        }
        break;
    }
    if (!m.truncated) break;
  }
  const lead = raw.trimStart();
  if (lead.startsWith('<think>')) {
    const close = lead.indexOf('</think>', 7);
    if (close < 0) {
      reasoning += lead.slice(7);
      raw = '';
    } else {
      reasoning += lead.slice(7, close);
      raw = lead.slice(close + 8).replace(/^\s+/, '');
    }
  }
  m.content = raw;
  m.reasoning = reasoning;
  m.calls = calls.map(({ id, name, args }) => ({ id, name, args }));
  m.encrypted = encrypted;
  return m;
}
