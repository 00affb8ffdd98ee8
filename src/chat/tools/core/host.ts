// What the built-in tools need from their environment: VS Code (src/chat/tools/vscode/host.ts)
// and plain node (test/support/nodeToolHost.ts) each implement this ToolHost.
import type { CommandOptions, CommandResult } from './command';
import type { ResolvedPath, WorkspaceRoot } from './paths';

/** A proposed file change, shown before approval and applied after it. */
export interface FileChange {
  callId: string;
  file: ResolvedPath;
  /** `create` when the file does not exist yet. */
  kind: 'create' | 'modify';
  before: string;
  after: string;
}

export interface SelectionInfo {
  /** Workspace path of the file, or undefined for an untitled editor. */
  absolute?: string;
  label: string;
  language: string;
  text: string;
  startLine: number;
  endLine: number;
}

export interface DiagnosticInfo {
  absolute: string;
  line: number;
  column: number;
  severity: 'error' | 'warning' | 'information' | 'hint';
  message: string;
  source?: string;
}

/** What the built-in tools need from their environment. */
export interface ToolHost {
  roots(): WorkspaceRoot[];
  /** Text of the file in an open editor (unsaved edits included), or undefined to read the disk. */
  editorText(absolute: string): string | undefined;
  /** Shows the proposed change (a diff) while the user decides. */
  showChange?(change: FileChange): Promise<void>;
  /** Closes what `showChange` opened. */
  closeChange?(change: FileChange): void;
  /**
   * Applies an approved change (in VS Code: an undoable WorkspaceEdit, then save). May return a
   * note for the model, such as "applied but not saved".
   */
  applyChange(change: FileChange): Promise<string | undefined | void>;
  runCommand(command: string, opts: CommandOptions): Promise<CommandResult>;
  commandTimeoutMs(): number;
  /**
   * The `files.exclude` patterns that are on for `root` (VS Code settings); find_files,
   * search_text and list_directory leave those files out, as they do `.gitignore`d ones.
   */
  excludePatterns?(root: WorkspaceRoot): string[];
  selection?(): SelectionInfo | undefined;
  diagnostics?(absolute?: string): DiagnosticInfo[];
}
