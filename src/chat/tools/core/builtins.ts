import type { ToolHost } from './host';
import type { Tool } from './runner';
import { askUser } from './builtin/askUser';
import { editFile } from './builtin/editFile';
import { findFiles } from './builtin/findFiles';
import { getDiagnostics } from './builtin/getDiagnostics';
import { getSelection } from './builtin/getSelection';
import { makeKit, type BuiltinToolOptions } from './builtin/kit';
import { listDirectory } from './builtin/listDirectory';
import { loadSkill } from './builtin/loadSkill';
import { readFile } from './builtin/readFile';
import { runCommand } from './builtin/runCommand';
import { searchText } from './builtin/searchText';
import { writeFile } from './builtin/writeFile';

export { CHANGING_TOOL_NAMES, READ_ONLY_TOOL_NAMES, type BuiltinToolOptions } from './builtin/kit';

/** Every built-in tool over `host`, in the order the model is offered them: reading first. */
export function builtinTools(host: ToolHost, opts: BuiltinToolOptions = {}): Tool[] {
  const kit = makeKit(host, opts);
  return [readFile, listDirectory, findFiles, searchText, getSelection, getDiagnostics, writeFile, editFile, runCommand]
    .map((tool) => tool(kit))
    .concat(opts.skills ? [loadSkill(opts.skills)] : [])
    .concat(opts.ask ? [askUser(opts.ask)] : []);
}
