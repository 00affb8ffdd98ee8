/**
 * MCP server definitions as VS Code (`.vscode/mcp.json`, `servers`), Claude Code and Copilot
 * (`.mcp.json`, `mcpServers`) and our user-level list write them, read into one shape:
 *
 * - stdio: `{"command", "args", "env", "envFile", "cwd"}` (`"type": "stdio"` or no type);
 * - HTTP: `{"type": "http" | "sse", "url", "headers"}` (a `url` without a type is HTTP);
 * - `inputs`: `[{"type": "promptString", "id", "description", "password"}]`, what `${input:id}` asks.
 *
 * Nothing here runs anything: a definition that is not understood is a problem with its server's
 * name, never silently dropped, and never half-read into something that starts.
 */
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import type { CustomizationProblem } from '../../../contracts/customizations';

export type McpScope = 'workspace' | 'user';

interface McpServerBase {
  /** The name in its file (the key under `servers`). */
  readonly name: string;
  readonly scope: McpScope;
  /** The file (or setting id) it was read from. */
  readonly source: string;
  /** The workspace folder it belongs to (workspace servers; `${workspaceFolder}` and `cwd` are read against it). */
  readonly folder?: string;
}

export interface McpStdioServer extends McpServerBase {
  readonly type: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly envFile?: string;
  readonly cwd?: string;
}

export interface McpHttpServer extends McpServerBase {
  /** `http`: streamable HTTP, falling back to the older SSE transport; `sse`: SSE only. */
  readonly type: 'http' | 'sse';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

export type McpServerDef = McpStdioServer | McpHttpServer;

/** What `${input:id}` asks for. */
export interface McpInput {
  readonly id: string;
  readonly description: string;
  readonly password: boolean;
}

export interface McpConfig {
  readonly servers: readonly McpServerDef[];
  readonly inputs: readonly McpInput[];
  readonly problems: readonly CustomizationProblem[];
}

/** Server names become part of tool names and commands: letters, digits, `.`, `_`, `-`. */
const SERVER_NAME = /^[A-Za-z0-9._-]{1,64}$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A file's text (JSON with comments) as servers and inputs; `where` says what it is for the list. */
export function parseMcpFile(text: string, where: { scope: McpScope; source: string; folder?: string }): McpConfig {
  const errors: ParseError[] = [];
  const root: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const e = errors[0]!;
    const line = text.slice(0, e.offset).split('\n').length;
    return {
      servers: [],
      inputs: [],
      problems: [{ line, message: `Not valid JSON: ${printParseErrorCode(e.error)}` }],
    };
  }
  return readMcpConfig(root, where);
}

/** An already parsed value (the user-level setting) as servers and inputs. */
export function readMcpConfig(root: unknown, where: { scope: McpScope; source: string; folder?: string }): McpConfig {
  const problems: CustomizationProblem[] = [];
  if (!isRecord(root)) return { servers: [], inputs: [], problems: [{ message: 'The file is not a JSON object.' }] };
  const table = root['servers'] ?? root['mcpServers'];
  if (table !== undefined && !isRecord(table))
    problems.push({ message: '"servers" must be an object of named servers.' });
  const servers: McpServerDef[] = [];
  for (const [name, raw] of Object.entries(isRecord(table) ? table : {})) {
    const r = readServer(name, raw, where);
    if (typeof r === 'string') problems.push({ message: `Server "${name}": ${r}` });
    else servers.push(r);
  }
  return { servers, inputs: readInputs(root['inputs'], problems), problems };
}

function readInputs(raw: unknown, problems: CustomizationProblem[]): McpInput[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push({ message: '"inputs" must be a list.' });
    return [];
  }
  const out: McpInput[] = [];
  for (const i of raw) {
    if (!isRecord(i) || typeof i['id'] !== 'string' || i['id'] === '') {
      problems.push({ message: 'An input without an "id" was left out.' });
      continue;
    }
    if (i['type'] !== undefined && i['type'] !== 'promptString') {
      problems.push({ message: `Input "${i['id']}": only "promptString" inputs are supported.` });
      continue;
    }
    out.push({
      id: i['id'],
      description: typeof i['description'] === 'string' ? i['description'] : i['id'],
      password: i['password'] === true,
    });
  }
  return out;
}

/** One server, or the reason it cannot be read. */
function readServer(
  name: string,
  raw: unknown,
  where: { scope: McpScope; source: string; folder?: string },
): McpServerDef | string {
  if (!SERVER_NAME.test(name)) return 'the name may hold only letters, digits, ".", "_" and "-" (at most 64).';
  if (!isRecord(raw)) return 'the definition is not an object.';
  const base = { name, scope: where.scope, source: where.source, ...(where.folder ? { folder: where.folder } : {}) };
  const type = raw['type'] ?? (raw['url'] !== undefined ? 'http' : 'stdio');
  if (type === 'stdio' || type === 'local') {
    if (typeof raw['command'] !== 'string' || raw['command'].trim() === '') return '"command" is missing.';
    const args = raw['args'] ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) return '"args" must be a list of strings.';
    const env = stringMap(raw['env'], 'env');
    if (typeof env === 'string') return env;
    for (const k of ['envFile', 'cwd'] as const) {
      if (raw[k] !== undefined && typeof raw[k] !== 'string') return `"${k}" must be a string.`;
    }
    return {
      ...base,
      type: 'stdio',
      command: raw['command'],
      args,
      env,
      ...(typeof raw['envFile'] === 'string' ? { envFile: raw['envFile'] } : {}),
      ...(typeof raw['cwd'] === 'string' ? { cwd: raw['cwd'] } : {}),
    };
  }
  if (type === 'http' || type === 'sse' || type === 'streamable-http') {
    if (typeof raw['url'] !== 'string') return '"url" is missing.';
    const headers = stringMap(raw['headers'], 'headers');
    if (typeof headers === 'string') return headers;
    return { ...base, type: type === 'sse' ? 'sse' : 'http', url: raw['url'], headers };
  }
  return `the type "${String(type)}" is not one of stdio, http, sse.`;
}

function stringMap(v: unknown, field: string): Record<string, string> | string {
  if (v === undefined || v === null) return {};
  if (!isRecord(v)) return `"${field}" must be an object of strings.`;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === 'number' || typeof x === 'boolean') out[k] = String(x);
    else if (typeof x === 'string') out[k] = x;
    else if (x !== null) return `"${field}.${k}" must be a string.`;
  }
  return out;
}

/** The variables a definition may name: `${workspaceFolder}`, `${userHome}`, `${env:NAME}`, `${input:id}`. */
export interface VariableValues {
  workspaceFolder?: string;
  userHome: string;
  env: (name: string) => string | undefined;
  /** The value the user gave for an input (asked once, kept in secret storage). */
  input: (id: string) => Promise<string | undefined>;
}

export class McpVariableError extends Error {}

/** `text` with its variables filled; an unknown variable or an unanswered input throws. */
export async function fillVariables(text: string, v: VariableValues): Promise<string> {
  const parts: string[] = [];
  let last = 0;
  for (const m of text.matchAll(/\$\{([^}]*)\}/g)) {
    parts.push(text.slice(last, m.index), await variable(m[1]!, v));
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  return parts.join('');
}

async function variable(name: string, v: VariableValues): Promise<string> {
  if (name === 'workspaceFolder') {
    if (v.workspaceFolder === undefined) throw new McpVariableError('${workspaceFolder} has no folder here.');
    return v.workspaceFolder;
  }
  if (name === 'userHome') return v.userHome;
  if (name.startsWith('env:')) return v.env(name.slice(4)) ?? '';
  if (name.startsWith('input:')) {
    const value = await v.input(name.slice(6));
    if (value === undefined) throw new McpVariableError(`No value was given for \${${name}}.`);
    return value;
  }
  throw new McpVariableError(`The variable \${${name}} is not known.`);
}
