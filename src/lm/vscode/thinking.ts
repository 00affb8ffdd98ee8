import * as vscode from 'vscode';

export type ThinkingPartClass = new (value: string) => unknown;

/**
 * VS Code's `LanguageModelThinkingPart` when the running VS Code offers it, else undefined. Looked
 * up at run time: it began as a proposed API, and the extension must activate (and answer in text)
 * where it is missing or where reading it is refused.
 */
export function thinkingPartClass(api: unknown = vscode): ThinkingPartClass | undefined {
  try {
    const ctor = (api as Record<string, unknown>).LanguageModelThinkingPart;
    return typeof ctor === 'function' ? (ctor as ThinkingPartClass) : undefined;
  } catch {
    return undefined;
  }
}
