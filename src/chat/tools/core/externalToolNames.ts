/**
 * Names of the tools other extensions and MCP servers registered in VS Code (`vscode.lm.tools`):
 * the wire name the model calls (which may have to be cleaned and made unique, so it can depend
 * on what else is listed) and the key the user's enabled/trusted choices are kept under (which
 * must not). The key comes from VS Code's own unique tool name and, where VS Code exposes it,
 * the tool's source (extension id or MCP server), never from the wire name or listing order: a
 * tool that takes over another's cleaned name, or a reordered list, never inherits its trust.
 */

/** Wire names the gateway accepts for a function (the OpenAI rule). */
const WIRE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** What the naming needs of a `vscode.LanguageModelToolInformation`. */
export interface ExternalToolInfo {
  name: string;
  /** Not in the stable API (1.104); newer VS Code versions add it. Read defensively. */
  source?: unknown;
}

export interface ExternalToolNaming {
  lmName: string;
  wireName: string;
  /** Where its enabled and trusted state is kept; never equal to a built-in tool's name. */
  trustKey: string;
}

/** `ext:<extension id>` or `mcp:<server name>` when VS Code says where the tool comes from. */
function sourceId(source: unknown): string | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const s = source as { id?: unknown; name?: unknown };
  if (typeof s.id === 'string' && s.id !== '') return `ext:${s.id}`;
  if (typeof s.name === 'string' && s.name !== '') return `mcp:${s.name}`;
  return undefined;
}

/**
 * The state key of an outside tool. The `lm:` prefix holds a `:`, which no wire name can, so an
 * outside tool's key never equals a built-in tool's key (its name).
 */
export function externalToolKey(info: ExternalToolInfo): string {
  const src = sourceId(info.source);
  return src === undefined ? `lm:${info.name}` : `lm:${src}:${info.name}`;
}

/** A unique wire name: the tool's own when valid and free, else a cleaned, prefixed one. */
export function wireName(lmName: string, used: ReadonlySet<string>): string {
  if (WIRE_NAME.test(lmName) && !used.has(lmName)) return lmName;
  const base = `ext_${lmName.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 60);
  let name = base;
  for (let i = 2; used.has(name); i++) name = `${base}_${i}`;
  return name;
}

/** Wire names and keys for the listed tools, in their order; `taken` holds the built-in names. */
export function nameExternalTools(
  infos: readonly ExternalToolInfo[],
  taken: ReadonlySet<string>,
): ExternalToolNaming[] {
  const used = new Set(taken);
  return infos.map((info) => {
    const name = wireName(info.name, used);
    used.add(name);
    return { lmName: info.name, wireName: name, trustKey: externalToolKey(info) };
  });
}
