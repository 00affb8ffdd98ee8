/**
 * Probe 1, the tokenizer fingerprint: one request per probe string (`max_tokens` 1), whose
 * `usage.prompt_tokens` are compared with each family's counts. One request per string rather
 * than one combined request: a combined prompt yields a single number, which many families can
 * share, while eight numbers form a vector that separates them; and the difference from the
 * baseline string cancels the template's tokens, which a single total cannot. The eight small
 * requests cost about 250 prompt tokens in all.
 */
import * as l10n from '@vscode/l10n';
import type { ChatRequest } from '../../../api/chat/wire';
import { claimedFamily, familyLabel, FAMILIES, PROBE_STRINGS, type TokenizerFamily } from './families';
import type { ProbeResult } from './types';

export type FingerprintResult = Omit<ProbeResult, 'spent'>;

export function fingerprintRequests(model: string): ChatRequest[] {
  return PROBE_STRINGS.map((content) => ({
    model,
    messages: [{ role: 'user' as const, content }],
    max_tokens: 1,
    temperature: 0,
  }));
}

/** Each probe's tokens beyond the baseline's (the template's tokens cancel out). */
function differences(counts: readonly number[]): number[] {
  return counts.slice(1).map((c) => c - counts[0]!);
}

/** How far a relay's differences are from a family's: the sum of the absolute gaps, in tokens. */
export function distance(relay: readonly number[], family: TokenizerFamily): number {
  const want = differences(family.counts);
  return differences(relay).reduce((n, d, i) => n + Math.abs(d - want[i]!), 0);
}

/**
 * The verdict from the prompt tokens the relay reported for each probe string (undefined where
 * it reported none), for `model` (whose name claims a family, or not).
 */
export function fingerprintVerdict(model: string, reported: ReadonlyArray<number | undefined>): FingerprintResult {
  const missing = reported.filter((c) => c === undefined || !Number.isFinite(c)).length;
  if (missing > 0 || reported.length !== PROBE_STRINGS.length) {
    return {
      probe: 'tokenizer',
      verdict: 'cannot-tell',
      summary: l10n.t(
        'Cannot tell: the relay reported no prompt tokens (usage) for {0} of {1} probes, and the tokenizer is told by those counts.',
        missing || PROBE_STRINGS.length,
        PROBE_STRINGS.length,
      ),
      evidence: [],
      figures: {},
    };
  }
  const counts = reported as number[];
  const scored = FAMILIES.map((f) => ({ f, d: distance(counts, f) })).sort((a, b) => a.d - b.d);
  const exact = scored.find((s) => s.d === 0)?.f;
  const claimed = claimedFamily(model);
  const evidence = [
    l10n.t('Relay, tokens beyond the baseline: {0}', differences(counts).join(', ')),
    ...scored.map((s) => l10n.t('{0}: {1} (off by {2})', s.f.label, differences(s.f.counts).join(', '), s.d)),
  ];
  const figures: Record<string, number> = Object.fromEntries(scored.map((s) => [`off_${s.f.id}`, s.d]));
  const result = (verdict: FingerprintResult['verdict'], summary: string): FingerprintResult => ({
    probe: 'tokenizer',
    verdict,
    summary,
    evidence,
    figures,
  });
  const claimLabel = claimed ? familyLabel(claimed) : undefined;
  const claimKnown = claimed !== undefined && FAMILIES.some((f) => f.id === claimed);
  if (exact) {
    if (claimed === undefined)
      return result('ok', l10n.t('The counts match {0} exactly; the model name claims no family.', exact.label));
    if (claimed === exact.id)
      return result('ok', l10n.t('The counts match {0} exactly, as the name claims.', exact.label));
    return result(
      'problem',
      l10n.t(
        'The counts match {0} exactly, but the name claims {1}: another model answers under this name.',
        exact.label,
        claimLabel!,
      ),
    );
  }
  const nearest = scored[0]!;
  if (claimKnown) {
    const off = scored.find((s) => s.f.id === claimed)!.d;
    return result(
      'problem',
      l10n.t(
        'The counts do not match {0}, which the name claims (off by {1} tokens); nearest: {2}.',
        claimLabel!,
        off,
        nearest.f.label,
      ),
    );
  }
  return result(
    'cannot-tell',
    claimLabel
      ? l10n.t(
          'Cannot tell: the counts match none of the known families, and the claimed {0} has no table of counts here.',
          claimLabel,
        )
      : l10n.t('Cannot tell: the counts match none of the known families, and the name claims none.'),
  );
}
