/**
 * A definition with its variables filled, its env file read and its folder checked, ready to
 * start. A workspace server's env file and working folder must lie inside its workspace folder:
 * the repository chose them, and a path like `../../.ssh` must not reach the user's other files.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fillVariables, McpVariableError, type McpServerDef, type VariableValues } from './config';
import type { ResolvedServer } from './trust';

/** The lines of a dotenv file: `KEY=value`, `export KEY=value`, quotes dropped, `#` comments skipped. */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(raw);
    if (!m) continue;
    let v = m[2]!.trim();
    if (/^(["']).*\1$/.test(v)) v = v.slice(1, -1);
    else v = v.replace(/\s+#.*$/, '');
    out[m[1]!] = v;
  }
  return out;
}

function inside(folder: string, p: string): boolean {
  const rel = path.relative(folder, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** A path of the definition, absolute; a workspace server's must stay inside its folder. */
function placed(d: McpServerDef, p: string, what: string, home: string): string {
  const base = d.folder ?? home;
  const abs = path.resolve(base, p);
  if (d.scope === 'workspace' && d.folder !== undefined && !inside(d.folder, abs)) {
    throw new McpVariableError(`The ${what} "${p}" lies outside the workspace folder.`);
  }
  return abs;
}

async function fillAll(r: Readonly<Record<string, string>>, v: VariableValues): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(r)) out[k] = await fillVariables(x, v);
  return out;
}

/** Fills the variables of `d`; throws {@link McpVariableError} with a line for the user. */
export async function resolveServer(d: McpServerDef, v: VariableValues): Promise<ResolvedServer> {
  if (d.type !== 'stdio') {
    return { def: d, url: await fillVariables(d.url, v), headers: await fillAll(d.headers, v) };
  }
  let fromFile: Record<string, string> = {};
  if (d.envFile !== undefined) {
    const file = placed(d, await fillVariables(d.envFile, v), 'env file', v.userHome);
    const text = await readFile(file, 'utf8').catch((e: unknown) => {
      throw new McpVariableError(`The env file "${d.envFile}" cannot be read: ${(e as Error).message}`);
    });
    fromFile = parseEnvFile(text);
  }
  const cwd = d.cwd !== undefined ? placed(d, await fillVariables(d.cwd, v), 'folder', v.userHome) : d.folder;
  const args: string[] = [];
  for (const a of d.args) args.push(await fillVariables(a, v));
  return {
    def: d,
    command: await fillVariables(d.command, v),
    args,
    // The definition's own entries win over its env file's, as in VS Code.
    env: { ...fromFile, ...(await fillAll(d.env, v)) },
    ...(cwd !== undefined ? { cwd } : {}),
  };
}
