import * as vscode from 'vscode';

type ThinkingCtor = new (value: string) => unknown;

/**
 * VS Code's `LanguageModelThinkingPart` when the running VS Code offers it, else undefined. Looked
 * up at run time: it began as a proposed API, and the extension must activate (and answer in text)
 * where it is missing or where reading it is refused.
 */
export function thinkingPartClass(api: unknown = vscode): ThinkingCtor | undefined {
  try {
    const ctor = (api as Record<string, unknown>).LanguageModelThinkingPart;
    return typeof ctor === 'function' ? (ctor as ThinkingCtor) : undefined;
  } catch {
    return undefined;
  }
}
