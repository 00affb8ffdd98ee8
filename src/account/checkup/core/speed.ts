/**
 * Probe 4, speed: a few short streams, each timed from the request to its first text (time to
 * first token) and from there to its end (tokens per second, by the completion tokens the relay
 * reported, else by the text events that came).
 */
import * as l10n from '@vscode/l10n';
import type { ChatRequest } from '../../../api/chat/wire';
import type { ProbeResult } from './types';

export const SPEED_STREAMS = 2;
export const SPEED_MAX_TOKENS = 48;

export function speedRequest(model: string): ChatRequest {
  return {
    model,
    messages: [{ role: 'user', content: 'Count from 1 to 100 in words, separated by commas.' }],
    max_tokens: SPEED_MAX_TOKENS,
    temperature: 0,
    stream: true,
  };
}

/** One stream's timing, in ms since some origin. */
export interface StreamTiming {
  startedAt: number;
  firstTextAt?: number;
  endedAt: number;
  completionTokens?: number;
  textEvents: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export function speedVerdict(
  timings: readonly StreamTiming[],
  failures: readonly string[] = [],
): Omit<ProbeResult, 'spent'> {
  const good = timings.filter((t) => t.firstTextAt !== undefined);
  const evidence = failures.map((f) => l10n.t('A stream failed: {0}', f));
  if (good.length === 0)
    return {
      probe: 'speed',
      verdict: failures.length ? 'refused' : 'cannot-tell',
      summary: l10n.t('No stream brought any text, so there is no speed to measure.'),
      evidence,
      figures: {},
    };
  const ttft = median(good.map((t) => t.firstTextAt! - t.startedAt));
  const rates = good.map((t) => {
    const tokens = t.completionTokens ?? t.textEvents;
    const secs = Math.max(1, t.endedAt - t.firstTextAt!) / 1000;
    return tokens / secs;
  });
  const tps = median(rates);
  for (const [i, t] of good.entries())
    evidence.push(
      l10n.t(
        'Stream {0}: first text after {1} ms, {2} tokens in {3} ms.',
        i + 1,
        Math.round(t.firstTextAt! - t.startedAt),
        t.completionTokens ?? t.textEvents,
        Math.round(t.endedAt - t.firstTextAt!),
      ),
    );
  return {
    probe: 'speed',
    verdict: 'ok',
    summary: l10n.t(
      'Time to first token {0} ms; {1} tokens per second (medians of {2} streams).',
      Math.round(ttft),
      tps.toFixed(1),
      good.length,
    ),
    evidence,
    figures: { ttftMs: Math.round(ttft), tokensPerSecond: Math.round(tps * 10) / 10 },
  };
}
