/**
 * The variables of a prompt file's body, as VS Code documents them: `${input:name}` and
 * `${input:name:placeholder}` (asked from the user, or given in the message as `name=value`),
 * `${selection}` and `${selectedText}`, `${file}`, `${fileBasename}`, `${fileDirname}`,
 * `${fileBasenameNoExtension}`, `${workspaceFolder}` and `${workspaceFolderBasename}`. Anything
 * else in `${…}` is left as written (a shell snippet in the body keeps its `${HOME}`).
 */
import * as path from 'node:path';

export interface InputVariable {
  name: string;
  /** The first placeholder written for this name, if any. */
  placeholder?: string;
}

const INPUT = /\$\{input:([A-Za-z_][\w-]*)(?::([^}]*))?\}/g;

/** Each distinct `${input:…}` name once, in order of first use. */
export function inputVariables(body: string): InputVariable[] {
  const seen = new Map<string, InputVariable>();
  for (const m of body.matchAll(INPUT)) {
    const name = m[1]!;
    const placeholder = m[2]?.trim();
    const cur = seen.get(name);
    if (!cur) seen.set(name, { name, ...(placeholder ? { placeholder } : {}) });
    else if (!cur.placeholder && placeholder) cur.placeholder = placeholder;
  }
  return [...seen.values()];
}

/**
 * `name=value` pairs in what the user typed after `/command` (VS Code's `/create-form
 * formName=MyForm`); a value in double quotes may hold spaces. Returns the pairs for the given
 * names and the rest of the text without them.
 */
export function inputsFromArguments(
  args: string,
  names: readonly string[],
): { values: Map<string, string>; rest: string } {
  const values = new Map<string, string>();
  const wanted = new Set(names);
  const rest = args.replace(
    /(^|\s)([A-Za-z_][\w-]*)=(?:"([^"]*)"|(\S+))/g,
    (all, lead: string, name: string, q?: string, v?: string) => {
      if (!wanted.has(name) || values.has(name)) return all;
      values.set(name, q ?? v ?? '');
      return lead;
    },
  );
  return { values, rest: rest.replace(/\s+/g, ' ').trim() };
}

/** The editor and workspace at the moment the prompt runs. */
export interface VariableContext {
  /** Absolute path of the active file, if there is one. */
  file?: string;
  /** The active editor's selected text ('' when nothing is selected). */
  selection?: string;
  /** Absolute path of the workspace folder the prompt runs in. */
  workspaceFolder?: string;
  inputs: ReadonlyMap<string, string>;
}

/** The body with every documented variable filled; an unknown one stays as written. */
export function fillVariables(body: string, c: VariableContext): string {
  const file = c.file;
  const known: Record<string, string | undefined> = {
    selection: c.selection ?? '',
    selectedText: c.selection ?? '',
    file: file ?? '',
    fileBasename: file ? path.basename(file) : '',
    fileDirname: file ? path.dirname(file) : '',
    fileBasenameNoExtension: file ? path.basename(file, path.extname(file)) : '',
    workspaceFolder: c.workspaceFolder ?? '',
    workspaceFolderBasename: c.workspaceFolder ? path.basename(c.workspaceFolder) : '',
  };
  // One pass: a value that itself holds `${…}` (a selection of shell code) is not filled again.
  return body.replace(/\$\{(input:([A-Za-z_][\w-]*)(?::[^}]*)?|[A-Za-z]+)\}/g, (all, whole: string, input?: string) => {
    if (input !== undefined) return c.inputs.get(input) ?? all;
    return Object.hasOwn(known, whole) ? (known[whole] ?? '') : all;
  });
}
