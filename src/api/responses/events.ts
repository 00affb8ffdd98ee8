/**
 * The Responses API's stream events (`response.output_text.delta`, `response.function_call_arguments.delta`,
 * `response.reasoning_summary_text.delta`, `response.completed`, `response.failed`, `error`, …) read
 * into the chat's own stream events and result, so that nothing above the client knows which
 * protocol answered. A non-streamed response object goes through the same code as the `response`
 * of a `response.completed` event.
 */
import * as l10n from '@vscode/l10n';
import { GatewayError } from '../transport/errors';
import { ThinkTagSplitter } from '../chat/reasoning/thinkTags';
import { chatResult } from '../chat/accumulator';
import { addCitations, type Citation } from '../chat/citations';
import type { ChatResult, ChatStreamEvent, ReasoningItem, Usage } from '../chat/wire';

type Json = Record<string, unknown>;

export type { ReasoningItem } from '../chat/wire';

interface CallSlot {
  itemId?: string;
  callId?: string;
  name: string;
  args: string;
}

const obj = (v: unknown): Json | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The Responses usage (`input_tokens`, `output_tokens`) under the chat's names, its details kept. */
export function usageOf(raw: unknown): Usage | undefined {
  const u = obj(raw);
  if (!u) return undefined;
  const input = num(u.input_tokens) ?? num(u.prompt_tokens);
  const output = num(u.output_tokens) ?? num(u.completion_tokens);
  if (input === undefined || output === undefined) return undefined;
  const out: Usage = {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: num(u.total_tokens) ?? input + output,
  };
  const cached = num(obj(u.input_tokens_details)?.cached_tokens);
  const reasoning = num(obj(u.output_tokens_details)?.reasoning_tokens);
  if (cached !== undefined) out.prompt_tokens_details = { cached_tokens: cached };
  if (reasoning !== undefined) out.completion_tokens_details = { reasoning_tokens: reasoning };
  return out;
}

/** Reads one response's events in order; {@link result} is the answer so far at any point. */
export class ResponsesAccumulator {
  private content = '';
  private reasoning = '';
  private readonly think = new ThinkTagSplitter();
  private readonly calls: CallSlot[] = [];
  private readonly reasoningItems: ReasoningItem[] = [];
  /**
   * Whether text (or reasoning) came as deltas: then finished items never add theirs again. Per
   * response rather than per item, as relays drop `item_id` from deltas.
   */
  private sawText = false;
  /** The `url_citation`s of a `web_search` answer, and the searches it ran (`web_search_call` items). */
  private readonly citations: Citation[] = [];
  private readonly searchIds = new Set<string>();
  private sawReasoning = false;
  /** Last summary part seen per reasoning item, to put a blank line between parts. */
  private readonly summaryPart = new Map<string, number>();
  private readonly messagesDone = new Set<string>();
  private finishReason?: string;
  private usage?: Usage;
  private model?: string;
  private id?: string;

  constructor(private readonly emit?: (e: ChatStreamEvent) => void) {}

  /** True once `response.completed` (or `response.incomplete`) arrived. */
  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  /** Encrypted reasoning items of this response, for the next request's `input`. */
  get encryptedReasoning(): readonly ReasoningItem[] {
    return this.reasoningItems;
  }

  /** Applies one decoded event. Throws `stream` for `error` and `response.failed`. */
  push(raw: unknown): void {
    const e = obj(raw);
    if (!e) throw this.invalid(l10n.t('A responses stream event is not an object.'));
    const type = str(e.type) ?? '';
    switch (type) {
      case 'response.created':
      case 'response.in_progress':
      case 'response.queued':
        this.header(obj(e.response));
        return;
      case 'response.output_item.added':
        this.itemAdded(obj(e.item));
        return;
      case 'response.output_text.delta':
      case 'response.refusal.delta': {
        this.sawText = true;
        this.addContent(str(e.delta) ?? '');
        return;
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const itemId = str(e.item_id) ?? '';
        const part = num(e.summary_index) ?? num(e.content_index) ?? 0;
        this.sawReasoning = true;
        const last = this.summaryPart.get(itemId);
        if (last !== undefined && last !== part && this.reasoning !== '') this.addReasoning('\n\n');
        this.summaryPart.set(itemId, part);
        this.addReasoning(str(e.delta) ?? '');
        return;
      }
      case 'response.function_call_arguments.delta': {
        const slot = this.slotFor(str(e.item_id), num(e.output_index));
        this.addArgs(slot, str(e.delta) ?? '');
        return;
      }
      case 'response.function_call_arguments.done': {
        const slot = this.slotFor(str(e.item_id), num(e.output_index));
        this.settleArgs(slot, str(e.arguments));
        return;
      }
      case 'response.output_text.annotation.added':
        addCitations(this.citations, [e.annotation]);
        return;
      case 'response.output_item.done':
        this.itemDone(obj(e.item));
        return;
      case 'response.completed':
      case 'response.incomplete':
        this.complete(obj(e.response), type === 'response.incomplete');
        return;
      case 'response.failed': {
        const r = obj(e.response);
        const err = obj(r?.error);
        throw this.failure(str(err?.message) ?? l10n.t('The response failed.'), str(err?.code), str(err?.type));
      }
      case 'error': {
        const inner = obj(e.error) ?? e;
        throw this.failure(
          str(inner.message) ?? JSON.stringify(e).slice(0, 200),
          str(inner.code),
          str(inner.type),
          str(inner.param),
        );
      }
      default:
        // An error object without a type (a relay's own envelope) is an error all the same.
        if (obj(e.error)) {
          const inner = obj(e.error)!;
          throw this.failure(str(inner.message) ?? '', str(inner.code), str(inner.type), str(inner.param));
        }
      // Every other event (content_part.added, output_text.done, annotations…) adds nothing new.
    }
  }

  /** A whole (non-streamed) response object, read as its `response.completed` would be. */
  pushResponse(body: unknown): void {
    const r = obj(body);
    if (!r) throw this.invalid(l10n.t('The responses answer is not an object.'));
    if (obj(r.error) && r.status !== 'completed') {
      const err = obj(r.error)!;
      throw this.failure(
        str(err.message) ?? l10n.t('The response failed.'),
        str(err.code),
        str(err.type),
        str(err.param),
      );
    }
    this.header(r);
    if (!Array.isArray(r.output)) throw this.invalid(l10n.t('The responses answer has no "output" array.'));
    this.complete(r, r.status === 'incomplete');
  }

  private header(r: Json | undefined): void {
    if (!r) return;
    const id = str(r.id);
    if (id && !this.id) this.id = id;
    const model = str(r.model);
    if (model && model !== this.model) {
      this.model = model;
      this.emit?.({ type: 'model', model });
    }
  }

  private itemAdded(item: Json | undefined): void {
    if (!item || item.type !== 'function_call') return;
    const slot = this.openCall(item);
    const args = str(item.arguments) ?? '';
    if (args) this.addArgs(slot, args);
  }

  private openCall(item: Json): CallSlot {
    const slot: CallSlot = { itemId: str(item.id), callId: str(item.call_id), name: str(item.name) ?? '', args: '' };
    this.calls.push(slot);
    this.emit?.({
      type: 'tool_call',
      index: this.calls.length - 1,
      id: slot.callId,
      name: slot.name || undefined,
      argumentsDelta: '',
    });
    return slot;
  }

  /** The call an argument event belongs to: by item id, else the last one opened (relays drop ids). */
  private slotFor(itemId: string | undefined, _outputIndex: number | undefined): CallSlot {
    const byId = itemId ? this.calls.find((c) => c.itemId === itemId) : undefined;
    return byId ?? this.calls.at(-1) ?? this.openCall({ id: itemId });
  }

  private addArgs(slot: CallSlot, delta: string): void {
    if (delta === '') return;
    slot.args += delta;
    this.emit?.({ type: 'tool_call', index: this.calls.indexOf(slot), argumentsDelta: delta });
  }

  /** A call's final arguments: what the deltas missed is added (a relay may send only the `done`). */
  private settleArgs(slot: CallSlot, final: string | undefined): void {
    if (final === undefined || final === slot.args) return;
    if (final.startsWith(slot.args)) this.addArgs(slot, final.slice(slot.args.length));
    else if (slot.args === '') this.addArgs(slot, final);
  }

  private itemDone(item: Json | undefined): void {
    if (!item) return;
    if (item.type === 'function_call') {
      const itemId = str(item.id);
      const callId = str(item.call_id);
      let slot = this.calls.find((c) => (itemId && c.itemId === itemId) || (callId && c.callId === callId));
      if (!slot) slot = this.openCall(item);
      if (!slot.callId && callId) slot.callId = callId;
      if (!slot.name && str(item.name)) slot.name = str(item.name)!;
      this.settleArgs(slot, str(item.arguments));
    } else if (item.type === 'reasoning') {
      const enc = str(item.encrypted_content);
      const itemId = str(item.id);
      if (enc && !this.reasoningItems.some((r) => r.id !== undefined && r.id === itemId))
        this.reasoningItems.push({
          type: 'reasoning',
          ...(itemId ? { id: itemId } : {}),
          summary: Array.isArray(item.summary) ? item.summary : [],
          encrypted_content: enc,
        });
      // A relay that sends summaries only on the finished item (each item once).
      const seenKey = `done:${itemId ?? this.summaryPart.size}`;
      if (!this.sawReasoning && !this.summaryPart.has(seenKey) && Array.isArray(item.summary)) {
        this.summaryPart.set(seenKey, 0);
        const text = item.summary
          .map((s) => str(obj(s)?.text) ?? '')
          .filter((t) => t !== '')
          .join('\n\n');
        if (text) this.addReasoning(text);
      }
    } else if (item.type === 'web_search_call') {
      this.searchIds.add(str(item.id) ?? `search-${this.searchIds.size}`);
    } else if (item.type === 'message') {
      const itemId = str(item.id) ?? '';
      for (const p of Array.isArray(item.content) ? item.content : [])
        addCitations(this.citations, obj(p)?.annotations);
      if (this.sawText || this.messagesDone.has(itemId)) return;
      this.messagesDone.add(itemId);
      const parts = Array.isArray(item.content) ? item.content : [];
      for (const p of parts) {
        const part = obj(p);
        const t = part?.type === 'refusal' ? str(part.refusal) : str(part?.text);
        if (t) this.addContent(t);
      }
    }
  }

  private complete(r: Json | undefined, incomplete: boolean): void {
    this.header(r);
    // A relay that skips the item events, or a non-streamed answer: the output array says it all.
    if (r && Array.isArray(r.output)) for (const item of r.output) this.itemDone(obj(item));
    const rest = this.think.end();
    if (rest.reasoning) this.addReasoning(rest.reasoning);
    if (rest.text) this.addText(rest.text);
    const usage = usageOf(r?.usage);
    if (usage) {
      this.usage = usage;
      this.emit?.({ type: 'usage', usage });
    }
    const why = str(obj(r?.incomplete_details)?.reason);
    const reason = incomplete
      ? why === 'max_output_tokens'
        ? 'length'
        : (why ?? 'length')
      : this.calls.length > 0
        ? 'tool_calls'
        : 'stop';
    this.finishReason = reason;
    this.emit?.({ type: 'finish', reason });
  }

  private addContent(piece: string): void {
    if (piece === '') return;
    const { text, reasoning } = this.think.push(piece);
    if (reasoning) this.addReasoning(reasoning);
    if (text) this.addText(text);
  }

  private addText(text: string): void {
    this.content += text;
    this.emit?.({ type: 'text', text });
  }

  private addReasoning(text: string): void {
    if (text === '') return;
    this.reasoning += text;
    this.emit?.({ type: 'reasoning', text });
  }

  private failure(message: string, code?: string, type?: string, param?: string): GatewayError {
    return new GatewayError('stream', l10n.t('The gateway reported an error mid-stream: {0}', message), {
      code,
      type,
      param: param ?? null,
      partial: this.result(),
    });
  }

  private invalid(message: string): GatewayError {
    return new GatewayError('invalid_response', message, { partial: this.result() });
  }

  /** The answer so far (the partial result of a broken stream too), in the chat's shape. */
  result(): ChatResult {
    const held = this.think.peek();
    return chatResult({
      calls: this.calls.map((c) => ({ id: c.callId, name: c.name, args: c.args })),
      content: this.content + held.text,
      reasoning: this.reasoning + held.reasoning,
      finishReason: this.finishReason,
      usage: this.usage,
      model: this.model,
      id: this.id,
      citations: this.citations,
      searches: this.searchIds.size,
    });
  }
}
