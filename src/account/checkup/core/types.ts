/**
 * The check-up's vocabulary: what a probe found (its verdict, evidence and what it spent) and the
 * report that gathers them. Types only.
 */

export type ProbeId = 'tokenizer' | 'window' | 'tools' | 'speed' | 'bill';

/**
 * `ok`: nothing wrong found; `problem`: the relay is not what it says (the evidence names it);
 * `cannot-tell`: the answers do not allow a verdict (why is in the summary); `refused`: the relay
 * refused the probe; `skipped`: not run (not allowed, stopped, or nothing to check).
 */
export type Verdict = 'ok' | 'problem' | 'cannot-tell' | 'refused' | 'skipped';

/** Tokens (and their cost, when a price is known) that a probe's requests used. */
export interface Spent {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  /** Quota units at the advertised price; undefined without a price or usage. */
  quota?: number;
}

export interface ProbeResult {
  probe: ProbeId;
  verdict: Verdict;
  /** One line: what was found. */
  summary: string;
  /** The figures behind it, one line each (counts, times, charges). */
  evidence: string[];
  spent: Spent;
  /** Figures kept for the history chart (numbers only: never a prompt or a key). */
  figures: Record<string, number>;
}

export interface CheckupReport {
  profile: string;
  /** The relay's `/v1` base URL (no key, no query). */
  gateway: string;
  model: string;
  startedAt: number;
  endedAt: number;
  /** Set when the check-up was stopped before its last probe. */
  stopped: boolean;
  estimate: Spent;
  spent: Spent;
  probes: ProbeResult[];
}
