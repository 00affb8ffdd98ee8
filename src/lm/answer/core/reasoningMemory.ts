// The reasoning of earlier tool-call turns, which VS Code's messages cannot carry back.
import { createHash } from 'node:crypto';

/** A tool call as the provider reported it (`LanguageModelToolCallPart` has these fields). */
export interface LmCallRef {
  readonly callId: string;
  readonly name: string;
  readonly input: unknown;
}

function memoryKey(call: string | LmCallRef): string {
  if (typeof call === 'string') return call;
  // Hashed: arguments can be a whole file's content, and up to `limit` keys are kept.
  const digest = createHash('sha256')
    .update(`${call.name}\u0000${JSON.stringify(call.input ?? {})}`)
    .digest('base64');
  return `${call.callId}\u0000${digest}`;
}

/**
 * `reasoning_content` of recent tool-call turns. VS Code's messages have no field for it, yet
 * DeepSeek-style models reject a tool-call turn sent back without it (wire-quirks.md), so the
 * provider remembers it. Filed under the whole call (id, tool, arguments) when given one: relays
 * that number calls per answer give the first call of every conversation the id `call_0`, and by
 * id alone one conversation's reasoning would be sent back in another. Bounded: oldest go first.
 */
export class ReasoningMemory {
  private readonly map = new Map<string, string>();
  constructor(private readonly limit = 500) {}

  remember(calls: readonly (string | LmCallRef)[], reasoning: string | undefined): void {
    if (!reasoning) return;
    for (const call of calls) {
      const key = memoryKey(call);
      this.map.delete(key);
      this.map.set(key, reasoning);
    }
    while (this.map.size > this.limit) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.map.delete(oldest);
    }
  }

  get(call: string | LmCallRef): string | undefined {
    return this.map.get(memoryKey(call));
  }

  get size(): number {
    return this.map.size;
  }
}
