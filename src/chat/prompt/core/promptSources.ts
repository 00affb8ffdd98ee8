/**
 * The one list of the files the chat reads as rules and instructions: each kind, where it is
 * read from in a workspace folder and in the documented user-level folders, the chip it makes,
 * whether a frontmatter field scopes it to some files, and what the watcher follows. Adding a kind
 * is one entry here (and, when its place is new, its names in RULES_FILES of
 * src/shared/sensitiveFiles.ts, which makes agent writes to it ask; a unit test checks the two
 * agree). Sources, from the formats' documentation (/work/shared/customization-formats.md):
 * - `AGENTS.md`: the cross-tool convention, at the root and nested;
 * - `CLAUDE.md` (root, `.claude/CLAUDE.md`, nested), `CLAUDE.local.md` (root) and the user's
 *   `~/.claude/CLAUDE.md`: Claude Code's memory files, which VS Code reads too;
 * - `.github/copilot-instructions.md`: Copilot's always-on file;
 * - `.github/instructions/**\/*.instructions.md` and the user's `~/.copilot/instructions` and VS
 *   Code profile `prompts` folder: scoped by `applyTo` (none: not applied automatically);
 * - `.claude/rules/**\/*.md` and `~/.claude/rules`: Claude's rules, scoped by `paths` (none: all);
 * - `.gatewaystudio/rules/*.md`: this product's folder, one topic per file.
 */
import type { RuleChip } from '../../../shared/protocol';

/** The chip's kind of a rules file (the page shows it). */
export type RuleKind = RuleChip['kind'];

/** A folder whose files ending in `suffix` are read (`recursive`: its subfolders too). */
export interface FolderPattern {
  /** `/`-separated, relative to the workspace folder (or the home folder for user places). */
  readonly folder: string;
  readonly suffix: string;
  readonly recursive: boolean;
}

export interface PromptSource {
  readonly chip: RuleKind;
  /** Files at fixed places, `/`-separated, relative to a workspace folder. */
  readonly files: readonly string[];
  readonly folders: readonly FolderPattern[];
  /** A name also read in the folders between a mentioned file and its workspace folder. */
  readonly nested?: string;
  /** The documented user-level places, relative to the home folder. */
  readonly user?: {
    readonly files?: readonly string[];
    readonly folders?: readonly FolderPattern[];
    /** Files ending so in the VS Code profile's `prompts` folder (where VS Code keeps user instructions). */
    readonly profilePrompts?: string;
  };
  /** The frontmatter field that scopes a file to matching paths, and what a file without it does. */
  readonly scope?: { readonly field: 'applyTo' | 'paths'; readonly whenAbsent: 'always' | 'manual' };
  /** Globs relative to a workspace folder that the watcher follows (no braces: they are joined in one). */
  readonly watch: readonly string[];
}

export const PROMPT_SOURCES: readonly PromptSource[] = [
  { chip: 'agents', files: ['AGENTS.md'], folders: [], nested: 'AGENTS.md', watch: ['AGENTS.md'] },
  {
    chip: 'claude',
    files: ['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md'],
    folders: [],
    nested: 'CLAUDE.md',
    user: { files: ['.claude/CLAUDE.md'] },
    watch: ['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md'],
  },
  {
    chip: 'copilot',
    files: ['.github/copilot-instructions.md'],
    folders: [],
    watch: ['.github/copilot-instructions.md'],
  },
  {
    chip: 'instructions',
    files: [],
    folders: [{ folder: '.github/instructions', suffix: '.instructions.md', recursive: true }],
    user: {
      folders: [{ folder: '.copilot/instructions', suffix: '.instructions.md', recursive: true }],
      profilePrompts: '.instructions.md',
    },
    scope: { field: 'applyTo', whenAbsent: 'manual' },
    watch: ['.github/instructions/**/*.instructions.md'],
  },
  {
    chip: 'instructions',
    files: [],
    folders: [{ folder: '.claude/rules', suffix: '.md', recursive: true }],
    user: { folders: [{ folder: '.claude/rules', suffix: '.md', recursive: true }] },
    scope: { field: 'paths', whenAbsent: 'always' },
    watch: ['.claude/rules/**/*.md'],
  },
  {
    chip: 'rules',
    files: [],
    folders: [{ folder: '.gatewaystudio/rules', suffix: '.md', recursive: false }],
    watch: ['.gatewaystudio/rules/*.md'],
  },
];

/** Every source's watch globs as one VS Code glob (the chips' watcher). */
export const PROMPT_WATCH_GLOB = `{${PROMPT_SOURCES.flatMap((s) => s.watch).join(',')}}`;

/** The names read nested below the workspace folders, in the list's order. */
export const NESTED_NAMES: readonly string[] = PROMPT_SOURCES.flatMap((s) => (s.nested ? [s.nested] : []));

/** Folder walks stop here: a rules folder with thousands of files is not read whole. */
export const FOLDER_LIMITS = { depth: 4, files: 100 } as const;
