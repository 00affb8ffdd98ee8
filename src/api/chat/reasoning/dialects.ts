// The reasoning dialects of a chat completion stream, the one list to register a new one in: the
// fields a delta may carry reasoning in, and the dialect that hides it in the content text.
import { plainReasoning } from './plainReasoning';
import { reasoningContent } from './reasoningContent';
import { reasoningDetails } from './reasoningDetails';
import { ThinkTagSplitter, type ThinkSplit } from './thinkTags';

/**
 * The delta fields, in the order they are read: the first one present (even empty) is the
 * chunk's reasoning, so a relay that sends one text in two fields has it counted once.
 */
export const DELTA_REASONING = [reasoningContent, plainReasoning, reasoningDetails] as const;

type Dialect = (typeof DELTA_REASONING)[number];
type Both<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;

/** Every dialect's fields, for the delta's schema (accumulator.ts). */
export const reasoningDeltaShape = Object.assign({}, ...DELTA_REASONING.map((d) => d.shape)) as Both<Dialect['shape']>;

/** A delta as the dialects read it. */
export type ReasoningDelta = Both<Parameters<Dialect['read']>[0]>;

/** The reasoning a delta carries, from the first dialect whose field it has. */
export function deltaReasoning(delta: ReasoningDelta): string | undefined {
  for (const d of DELTA_REASONING) {
    const r = d.read(delta);
    if (r !== undefined && r !== null) return r;
  }
  return undefined;
}

/** Splits reasoning out of streamed content: stateful, one per answer. */
export interface ContentReasoning {
  push(piece: string): ThinkSplit;
  /** What was held back, when the stream ended. */
  end(): ThinkSplit;
  /** What `end` would give, without giving it (a partial answer's snapshot). */
  peek(): ThinkSplit;
}

/** The dialect in the content text: `<think>` tags opening the answer. */
export const contentReasoning = (): ContentReasoning => new ThinkTagSplitter();
