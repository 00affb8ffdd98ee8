/**
 * Checks a protocol capability (src/shared/protocol/<capability>.ts) through its own exports: its
 * message lists joined into one union keyed on `type`, as index.ts joins them, then valid messages
 * accepted as they are and broken ones refused with the reason the host would log.
 */
import assert from 'node:assert/strict';
import * as z from '../../src/shared/zod';

interface Parser {
  safeParse(data: unknown): { success: boolean; data?: unknown; error?: z.core.$ZodError };
}

/** One capability's message list as the union index.ts builds from it. */
export function union(messages: readonly [z.ZodMiniObject, ...z.ZodMiniObject[]]): Parser & {
  def: { options: readonly z.ZodMiniObject[] };
} {
  return z.discriminatedUnion('type', [...messages]);
}

/** The `type` of every message a union holds. */
export function typesOf(schema: { def: { options: readonly z.ZodMiniObject[] } }): string[] {
  return schema.def.options.map((o) => {
    const literal = o.shape.type as unknown as { def: { values: unknown[] } };
    return String(literal.def.values[0]);
  });
}

/**
 * Every type of `schema` has a sample in `samples` (so a new message without one fails here),
 * and every sample is accepted unchanged.
 */
export function acceptsEvery(schema: Parser & { def: { options: readonly z.ZodMiniObject[] } }, samples: object[]) {
  const sampled = samples.map((s) => (s as { type?: unknown }).type);
  assert.deepEqual([...new Set(sampled)].sort(), typesOf(schema).sort(), 'one sample at least for every type');
  for (const sample of samples) accepts(schema, sample);
}

/** `value` parses to itself (nothing stripped or coerced). */
export function accepts(schema: Parser, value: unknown): void {
  const r = schema.safeParse(value);
  assert.ok(r.success, `refused ${String(JSON.stringify(value)).slice(0, 200)}: ${reason(r.error)}`);
  assert.deepEqual(r.data, value);
}

/** Why `value` is refused: the first issue's path and zod's English words; fails if it is accepted. */
export function refusal(schema: Parser, value: unknown): string {
  const r = schema.safeParse(value);
  assert.equal(r.success, false, `accepted ${String(JSON.stringify(value)).slice(0, 200)}`);
  return reason(r.error);
}

function reason(error: z.core.$ZodError | undefined): string {
  const issue = error?.issues[0];
  return issue ? `${issue.path.join('.')}: ${issue.message}` : 'no issue';
}
