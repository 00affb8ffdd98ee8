/**
 * Probe 2, the context window: one prompt just under the claimed window with `max_tokens` 1.
 * Accepted with a prompt count near its size: the window holds. Refused as an overflow: the
 * window is smaller than claimed. Accepted with a much smaller count: the relay truncated the
 * prompt silently. It costs about the claimed window in prompt tokens, so it runs only when the
 * user allowed that cost.
 */
import * as l10n from '@vscode/l10n';
import type { ChatRequest, Usage } from '../../../api/chat/wire';
import { readOverflow } from '../../../api/chat/overflow';
import type { ProbeResult } from './types';

export type WindowResult = Omit<ProbeResult, 'spent'>;

const INSTRUCTION = 'Reply with one word. ';
/** " the" is one token in every family the fingerprint knows (and in SentencePiece vocabularies). */
const FILLER = ' the';
/** Tokens a chat template may add around the message, kept free below the claimed window. */
const TEMPLATE_ALLOWANCE = 16;
/** A count below this share of the prompt's size means it was cut. */
const TRUNCATED_BELOW = 0.9;

/** The prompt tokens the probe aims at: under the window by 2% (at least 32) and the one answer token. */
export function windowTarget(claimed: number): number {
  return Math.max(1, claimed - 1 - Math.max(32, Math.ceil(claimed * 0.02)));
}

export function windowRequest(model: string, claimed: number): ChatRequest {
  const n = Math.max(1, windowTarget(claimed) - TEMPLATE_ALLOWANCE);
  return {
    model,
    messages: [{ role: 'user', content: INSTRUCTION + FILLER.repeat(n) }],
    max_tokens: 1,
    temperature: 0,
  };
}

export type WindowOutcome = { usage?: Usage } | { error: unknown };

export function windowVerdict(claimed: number, outcome: WindowOutcome): WindowResult {
  const target = windowTarget(claimed);
  const base = { probe: 'window' as const, figures: { claimed, target } };
  if ('error' in outcome) {
    const o = readOverflow(outcome.error);
    const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    if (!o)
      return {
        ...base,
        verdict: 'refused',
        summary: l10n.t('The relay refused the probe: {0}', message),
        evidence: [],
      };
    return {
      ...base,
      verdict: 'problem',
      summary: l10n.t(
        'A prompt of about {0} tokens was refused as too long: the window is smaller than the claimed {1}.',
        target,
        claimed,
      ),
      evidence: [
        ...(o.window !== undefined ? [l10n.t('The relay states a window of {0} tokens.', o.window)] : []),
        l10n.t('Its words: {0}', message),
      ],
      figures: { ...base.figures, ...(o.window !== undefined ? { stated: o.window } : {}) },
    };
  }
  const counted = outcome.usage?.prompt_tokens;
  if (typeof counted !== 'number' || !Number.isFinite(counted))
    return {
      ...base,
      verdict: 'cannot-tell',
      summary: l10n.t(
        'The prompt was accepted, but the relay reported no prompt tokens: a silent truncation cannot be ruled out.',
      ),
      evidence: [],
    };
  const figures = { ...base.figures, counted };
  if (counted < target * TRUNCATED_BELOW)
    return {
      ...base,
      figures,
      verdict: 'problem',
      summary: l10n.t(
        'The relay answered, but counted only {0} of about {1} prompt tokens: it cut the prompt silently.',
        counted,
        target,
      ),
      evidence: [l10n.t('Claimed window {0}; prompt sent about {1} tokens; counted {2}.', claimed, target, counted)],
    };
  return {
    ...base,
    figures,
    verdict: 'ok',
    summary: l10n.t('A prompt of {0} tokens was accepted whole (claimed window {1}).', counted, claimed),
    evidence: [],
  };
}
