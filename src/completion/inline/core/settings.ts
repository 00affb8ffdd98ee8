/**
 * The settings of inline completion (`gatewayStudio.completions.*`), read from a getter so they are
 * testable without VS Code; hand-edited values out of range fall back to the defaults of
 * package.json, as the other settings do.
 */
import { REPOSITORY_LAYERS, type SettingLayers } from '../../../shared/settingLayers';
import type { ModelOverride } from '../../../api/models/modelLimits';

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
  // Env files hold secrets; the eligibility check refuses them anyway (issue 35), this says so.
  dotenv: false,
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

/**
 * The settings from their layers (VS Code's `inspect()`), so that a workspace (a cloned
 * repository's `.vscode/settings.json` or `*.code-workspace`) can only make completion send less,
 * never more, nor choose what the user pays for: it may turn completion or a language off, lengthen
 * the debounce and lower the size limit; it may not turn completion or a language on, shorten the
 * debounce (a 0 would send a request per keystroke to the user's paid gateway), raise the size
 * limit, or choose the model (an expensive one would be paid on every pause in typing).
 */
export function completionSettingsFromLayers(layers: (key: string) => SettingLayers | undefined): CompletionSettings {
  const user = completionSettingsFrom((k) => {
    const l = layers(k);
    return l?.globalValue !== undefined ? l.globalValue : l?.defaultValue;
  });
  // The remote machine's settings (a dev container's) are the repository's too.
  for (const k of REPOSITORY_LAYERS) {
    const ws = (key: string): unknown => layers(key)?.[k];
    if (ws('completions.enabled') === false) user.enabled = false;
    const langs = ws('completions.languages');
    if (typeof langs === 'object' && langs !== null && !Array.isArray(langs))
      for (const [id, on] of Object.entries(langs))
        if (on === false) user.languages = { ...user.languages, [id]: false };
    if (ws('completions.debounceMs') !== undefined)
      user.debounceMs = Math.max(user.debounceMs, bounded(ws('completions.debounceMs'), 0, 0, 5000));
    if (ws('completions.maxFileKilobytes') !== undefined)
      user.maxFileKilobytes = Math.min(
        user.maxFileKilobytes,
        bounded(ws('completions.maxFileKilobytes'), user.maxFileKilobytes, 1, 100_000),
      );
  }
  return user;
}

/** Whether a workspace or folder setting turns completion off (the toggle cannot turn it on there). */
export function offByWorkspace(layers: SettingLayers | undefined): boolean {
  return REPOSITORY_LAYERS.some((k) => layers?.[k] === false);
}

/** The user's own value of a text setting (the workspace's is not used), trimmed. */
export function userText(layers: SettingLayers | undefined): string {
  const v = layers?.globalValue !== undefined ? layers.globalValue : layers?.defaultValue;
  return typeof v === 'string' ? v.trim() : '';
}

function bounded(v: unknown, fallback: number, min: number, max: number): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? Math.min(max, Math.max(min, Math.round(n))) : fallback;
}

/** Whether completion is on for a document of `languageId`. */
export function languageEnabled(s: CompletionSettings, languageId: string): boolean {
  return s.languages[languageId] ?? s.languages['*'] ?? true;
}

/**
 * The model completion uses: its own setting, else the chat model (both the user's own values:
 * {@link completionSettingsFromLayers}, {@link userText}).
 */
export function completionModel(s: CompletionSettings, chatModel: string): string {
  return s.model !== '' ? s.model : chatModel.trim();
}

/** How the model is asked: fill-in-the-middle when the overrides mark it so, else the chat endpoint. */
export function askWay(model: string, overrides: Readonly<Record<string, ModelOverride>>): 'fim' | 'chat' {
  return overrides[model]?.completion === 'fim' ? 'fim' : 'chat';
}
