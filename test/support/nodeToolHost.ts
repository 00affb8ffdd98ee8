import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { FileChange, ToolHost } from '../../src/chat/tools/core/host';
import { runShellCommand } from '../../src/chat/tools/core/command';
import type { WorkspaceRoot } from '../../src/chat/tools/core/paths';

/**
 * A {@link ToolHost} over plain node: reads and writes the disk, runs commands without a
 * terminal, has no editor (no selection, no diagnostics, no diff view): the tools' host in unit
 * and webview tests.
 */
export function nodeToolHost(
  roots: readonly WorkspaceRoot[],
  opts: { commandTimeoutMs?: number; onChange?: (c: FileChange) => void; excludes?: string[] } = {},
): ToolHost {
  return {
    // New objects per call, as VS Code's host gives: nothing may rely on their identity.
    roots: () => roots.map((r) => ({ ...r })),
    editorText: () => undefined,
    // What VS Code's `files.exclude` would give.
    excludePatterns: () => opts.excludes ?? [],
    applyChange: async (c) => {
      await fs.mkdir(path.dirname(c.file.absolute), { recursive: true });
      await fs.writeFile(c.file.absolute, c.after, 'utf8');
      opts.onChange?.(c);
    },
    runCommand: (command, o) => runShellCommand(command, o),
    commandTimeoutMs: () => opts.commandTimeoutMs ?? 30_000,
  };
}
