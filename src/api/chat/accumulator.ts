import * as l10n from '@vscode/l10n';
import * as z from '../../shared/zod';
// From its own file, not the protocol's index: the index would bring every page message's schema
// into activation (3.7 KB) for this one.
import { usageSchema } from '../../shared/protocol/chat';
import { GatewayError, readWireError } from '../transport/errors';
import { contentReasoning, deltaReasoning, reasoningDeltaShape } from './reasoning/dialects';
import { uniqueToolCallIds } from './toolCallIds';
import { addCitations, searchesIn, type Citation } from './citations';
import type { ChatResult, ChatStreamEvent, ToolCall, Usage } from './wire';

const str = z.nullish(z.string());

const toolCallDeltaSchema = z.object({
  index: z.nullish(z.number().check(z.int(), z.nonnegative())),
  id: str,
  type: str,
  function: z.nullish(
    z.object({
      name: str,
      // A few servers send already-parsed arguments; they are re-serialised below.
      arguments: z.nullish(z.union([z.string(), z.record(z.string(), z.unknown())])),
    }),
  ),
});

const deltaSchema = z.object({
  role: str,
  content: str,
  refusal: str,
  // Each reasoning dialect's field (./reasoning/dialects).
  ...reasoningDeltaShape,
  tool_calls: z.nullish(z.array(toolCallDeltaSchema)),
  // A web search's `url_citation`s (OpenRouter's web plugin), read leniently by ./citations.
  annotations: z.nullish(z.array(z.unknown())),
});

/** A `chat.completion.chunk`, read leniently: every deviation in wire-quirks.md must parse. */
export const chunkSchema = z.object({
  id: str,
  model: str,
  choices: z.nullish(
    z.array(
      z.object({
        index: z.nullish(z.number()),
        delta: z.nullish(deltaSchema),
        // Some relays put the whole message on the last chunk instead of a delta.
        message: z.nullish(deltaSchema),
        finish_reason: str,
      }),
    ),
  ),
  usage: z.nullish(usageSchema),
});

export type ChatChunk = z.output<typeof chunkSchema>;
type ToolCallDelta = z.infer<typeof toolCallDeltaSchema>;

interface Slot {
  id?: string;
  name: string;
  args: string;
  /** Where `args` stands as JSON, kept up to date fragment by fragment (see {@link scanJson}). */
  shape: JsonShape;
}

/**
 * Bracket depth outside strings, the string and escape state, and whether the text ends right
 * after closing its outermost bracket (trailing whitespace allowed): only then can it be a
 * complete JSON object, and only then is it worth parsing. Parsing the whole text at every
 * fragment was quadratic for servers that repeat the tool's name on every piece.
 */
interface JsonShape {
  depth: number;
  inString: boolean;
  escaped: boolean;
  closed: boolean;
}

const newShape = (): JsonShape => ({ depth: 0, inString: false, escaped: false, closed: false });

/** Advances `s` over `text` (linear in the fragment, whatever came before). */
function scanJson(s: JsonShape, text: string): void {
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (s.inString) {
      if (s.escaped) s.escaped = false;
      else if (ch === 0x5c)
        s.escaped = true; // backslash
      else if (ch === 0x22) s.inString = false; // quote
      continue;
    }
    if (ch === 0x22) {
      s.inString = true;
      s.closed = false;
    } else if (ch === 0x7b || ch === 0x5b) {
      s.depth++;
      s.closed = false;
    } else if (ch === 0x7d || ch === 0x5d) {
      s.depth--;
      s.closed = s.depth === 0;
    } else if (ch !== 0x20 && ch !== 0x09 && ch !== 0x0a && ch !== 0x0d) {
      s.closed = false;
    }
  }
}

/** Whether a slot's arguments are already one complete JSON object or array: a call that is done. */
function argsComplete(slot: Slot): boolean {
  return slot.shape.closed && isCompleteJson(slot.args);
}

/** Whether `args` is already one complete JSON value: a call whose arguments are done. */
function isCompleteJson(args: string): boolean {
  if (args.trim() === '') return false;
  try {
    JSON.parse(args);
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds the assistant message from stream chunks. Handles every deviation in wire-quirks.md:
 * reasoning in any dialect of ./reasoning/dialects (fragments joined), tool-call deltas without
 * `index`, parallel calls that all arrive at index 0 with distinct ids, whole calls in one delta,
 * several calls in one chunk, usage at any position, `choices: []`, missing `delta`, and the last
 * argument fragment in the same chunk as `finish_reason` (the delta is applied first). Tool-call
 * ids in the result are unique and non-empty even when a relay repeats or omits them.
 */
export class ChatAccumulator {
  private content = '';
  private reasoning = '';
  private readonly think = contentReasoning();
  private readonly calls: Slot[] = [];
  /** Wire index -> position in `calls` of the call that index currently continues. */
  private readonly byIndex = new Map<number, number>();
  private finishReason?: string;
  private usage?: Usage;
  private model?: string;
  private id?: string;
  private readonly citations: Citation[] = [];

  constructor(private readonly emit?: (e: ChatStreamEvent) => void) {}

  /** True once any choice reported a `finish_reason`. */
  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  /** Validates and applies one decoded JSON chunk. Throws `stream` for an error chunk, `invalid_response` for a non-chunk. */
  push(raw: unknown): void {
    if (typeof raw === 'object' && raw !== null && 'error' in raw && (raw as { error: unknown }).error) {
      const wire = readWireError(raw);
      throw new GatewayError(
        'stream',
        l10n.t('The gateway reported an error mid-stream: {0}', wire?.message ?? JSON.stringify(raw).slice(0, 200)),
        {
          type: wire?.type,
          code: wire?.code,
          param: wire?.param ?? null,
          partial: this.result(),
        },
      );
    }
    const parsed = chunkSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new GatewayError(
        'invalid_response',
        l10n.t('A stream chunk has an unexpected shape at {0}: {1}', issue?.path.join('.') ?? '', issue?.message ?? ''),
        {
          partial: this.result(),
        },
      );
    }
    this.apply(parsed.data);
  }

  /** Applies an already validated chunk. */
  apply(c: ChatChunk): void {
    if (c.id && !this.id) this.id = c.id;
    if (c.model && c.model !== this.model) {
      this.model = c.model;
      this.emit?.({ type: 'model', model: c.model });
    }
    for (const ch of c.choices ?? []) {
      // We never ask for n > 1; other choices would interleave into one message.
      if (ch.index !== undefined && ch.index !== null && ch.index !== 0) continue;
      const d = ch.delta ?? ch.message;
      if (d) {
        if (d.content) this.addContent(d.content);
        if (d.refusal) {
          // A refusal is shown as text so the user sees why nothing else came.
          this.content += d.refusal;
          this.emit?.({ type: 'text', text: d.refusal });
        }
        const r = deltaReasoning(d);
        if (r) this.addReasoning(r);
        if (d.tool_calls) for (const t of d.tool_calls) this.applyToolDelta(t);
        if (d.annotations) addCitations(this.citations, d.annotations);
      }
      if (ch.finish_reason) {
        const rest = this.think.end();
        if (rest.reasoning) this.addReasoning(rest.reasoning);
        if (rest.text) this.addText(rest.text);
        this.finishReason = ch.finish_reason;
        this.emit?.({ type: 'finish', reason: ch.finish_reason });
      }
    }
    if (c.usage) {
      this.usage = c.usage;
      this.emit?.({ type: 'usage', usage: c.usage });
    }
  }

  /** Content as sent: a `<think>` block opening it is reasoning, not answer text. */
  private addContent(piece: string): void {
    const { text, reasoning } = this.think.push(piece);
    if (reasoning) this.addReasoning(reasoning);
    if (text) this.addText(text);
  }

  private addText(text: string): void {
    this.content += text;
    this.emit?.({ type: 'text', text });
  }

  private addReasoning(text: string): void {
    this.reasoning += text;
    this.emit?.({ type: 'reasoning', text });
  }

  private applyToolDelta(t: ToolCallDelta): void {
    const idx = t.index ?? undefined;
    const id = t.id || undefined;
    let pos: number | undefined =
      idx === undefined ? (this.calls.length > 0 ? this.calls.length - 1 : undefined) : this.byIndex.get(idx);
    const cur = pos === undefined ? undefined : this.calls[pos];
    // A new id on an occupied slot is a new call (every parallel call at index 0; or no index at all).
    // Relays that repeat one id (or send none) give no such signal; there a fragment naming a tool
    // after the slot's arguments already form complete JSON opens the next call. A fragment that
    // repeats the name mid-arguments (some servers send id and name on every piece) continues. A
    // call without parameters may have no arguments at all (`""`): another tool's name then opens
    // the next call too, where renaming the slot would silently lose the first call.
    const name = t.function?.name || undefined;
    const opensNew =
      cur === undefined ||
      (id !== undefined && cur.id !== undefined && cur.id !== id) ||
      (name !== undefined &&
        cur.name !== '' &&
        (id === undefined || id === cur.id) &&
        ((name !== cur.name && cur.args.trim() === '') || argsComplete(cur)));
    if (opensNew) {
      pos = this.calls.length;
      this.calls.push({ id, name: '', args: '', shape: newShape() });
    }
    if (idx !== undefined) this.byIndex.set(idx, pos!);
    const slot = this.calls[pos!]!;
    if (id && !slot.id) slot.id = id;
    if (name && name !== slot.name) slot.name = name;
    const a = t.function?.arguments;
    const argsDelta = typeof a === 'string' ? a : a ? JSON.stringify(a) : '';
    slot.args += argsDelta;
    scanJson(slot.shape, argsDelta);
    this.emit?.({ type: 'tool_call', index: pos!, id: id, name: name || undefined, argumentsDelta: argsDelta });
  }

  /** The message so far (also used as the partial result of a broken stream). */
  result(): ChatResult {
    const held = this.think.peek();
    return chatResult({
      calls: this.calls,
      content: this.content + held.text,
      reasoning: this.reasoning + held.reasoning,
      finishReason: this.finishReason,
      usage: this.usage,
      model: this.model,
      id: this.id,
      citations: this.citations,
    });
  }
}

/** What a stream gathered, whichever protocol it came in. */
export interface GatheredAnswer {
  calls: readonly { id?: string; name: string; args: string }[];
  /** The text and reasoning, with what a cut-short stream held back (half a `</think>`) added. */
  content: string;
  reasoning: string;
  finishReason?: ChatResult['finishReason'];
  usage?: ChatResult['usage'];
  model?: string;
  id?: string;
  citations?: readonly Citation[];
  /** Web searches the answer's items counted (Responses' `web_search_call`); else the usage's count. */
  searches?: number;
}

/** The answer in the chat's shape (also the partial result of a broken stream). */
export function chatResult(a: GatheredAnswer): ChatResult {
  // A call without an id, or with one another call of this answer has, could not be answered by
  // its own tool message (and cards and approvals are keyed by id).
  const ids = uniqueToolCallIds(a.calls.map((s) => s.id));
  const toolCalls: ToolCall[] = a.calls.map((s, i) => ({
    id: ids[i]!,
    type: 'function',
    function: { name: s.name, arguments: s.args },
  }));
  // Empty text beside tool calls is `null`, as the wire protocol has it for such turns.
  const cited = a.citations ?? [];
  const message: ChatResult['message'] = {
    role: 'assistant',
    content: a.content !== '' || toolCalls.length === 0 ? a.content : null,
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (a.reasoning) message.reasoning_content = a.reasoning;
  const out: ChatResult = { message };
  if (a.finishReason !== undefined) out.finishReason = a.finishReason;
  if (a.usage) out.usage = a.usage;
  if (a.model) out.model = a.model;
  if (a.id) out.id = a.id;
  if (cited.length > 0) out.citations = [...cited];
  const searches = a.searches || searchesIn(a.usage);
  if (searches) out.webSearches = searches;
  return out;
}
