/**
 * The settings of inline completion (`gatewayStudio.completions.*`), read from a getter so they are
 * testable without VS Code; hand-edited values out of range fall back to the defaults of
 * package.json, as the other settings do.
 */
import type { ModelOverride } from '../../../api/modelLimits';

export interface CompletionSettings {
  /** The master switch (the status-bar toggle). */
  enabled: boolean;
  /** Per language id, on or off; `*` is every language not named. */
  languages: Readonly<Record<string, boolean>>;
  /** The model for completion; empty: the chat model. */
  model: string;
  /** Quiet time after a keystroke before a request is sent. */
  debounceMs: number;
  /** Files larger than this get no request. */
  maxFileKilobytes: number;
}

/** Languages off by default: prose, where ghost text mostly gets in the way, and the SCM input. */
export const DEFAULT_LANGUAGES: Readonly<Record<string, boolean>> = {
  '*': true,
  plaintext: false,
  markdown: false,
  scminput: false,
};

export function completionSettingsFrom(get: (key: string) => unknown): CompletionSettings {
  const langs = get('completions.languages');
  const languages: Record<string, boolean> = { ...DEFAULT_LANGUAGES };
  if (typeof langs === 'object' && langs !== null && !Array.isArray(langs))
    for (const [k, v] of Object.entries(langs)) if (typeof v === 'boolean') languages[k] = v;
  const model = get('completions.model');
  return {
    enabled: get('completions.enabled') !== false,
    languages,
    model: typeof model === 'string' ? model.trim() : '',
    debounceMs: bounded(get('completions.debounceMs'), 250, 0, 5000),
    maxFileKilobytes: bounded(get('completions.maxFileKilobytes'), 1024, 1, 100_000),
  };
}

function bounded(v: unknown, fallback: number, min: number, max: number): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? Math.min(max, Math.max(min, Math.round(n))) : fallback;
}

/** Whether completion is on for a document of `languageId`. */
export function languageEnabled(s: CompletionSettings, languageId: string): boolean {
  return s.languages[languageId] ?? s.languages['*'] ?? true;
}

/** The model completion uses: its own setting, else the chat model. */
export function completionModel(s: CompletionSettings, chatModel: string): string {
  return s.model !== '' ? s.model : chatModel.trim();
}

/** How the model is asked: fill-in-the-middle when the overrides mark it so, else the chat endpoint. */
export function askWay(model: string, overrides: Readonly<Record<string, ModelOverride>>): 'fim' | 'chat' {
  return overrides[model]?.completion === 'fim' ? 'fim' : 'chat';
}
