// The chat's MCP client: which workspace server definitions the user approved, whose read-only
// tools run without asking, and where the values typed for `${input:…}` are kept.
// How to add a key: ./state.ts.
import { emptyMap, entries, items, stateKey, text } from './state';

const sha256: (v: unknown) => string | undefined = (v) => {
  const t = text(v);
  return t !== undefined && /^[0-9a-f]{64}$/.test(t) ? t : undefined;
};

/**
 * global: per workspace server (`<file>#<name>`), the sha256 of the definition the user approved
 * (`definitionHash` in src/chat/mcp/core/trust.ts). Global, not workspace state: the workspace's
 * own storage is no place for its permission to run commands. A changed definition no longer
 * matches and is asked about again.
 */
export const approvedMcpServersKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.mcp.approvedServers',
  store: 'global',
  check: entries(sha256),
  fallback: emptyMap as () => Record<string, string>,
});

/**
 * workspace: the servers whose tools marked `readOnlyHint` run without asking in this workspace
 * (the user's choice in the servers view; beside the tools' own trust, also per workspace).
 */
export const mcpReadOnlyServersKey = /* @__PURE__ */ stateKey({
  key: 'gatewayStudio.mcp.readOnlyServers',
  store: 'workspace',
  check: items(text),
  fallback: (): string[] => [],
});

/**
 * Secret storage: the value typed for an input, per file and input id (`<prefix><file>#<id>`):
 * keyed by the file that declared it, so a repository's `${input:token}` never receives what the
 * user typed for their own server's input of the same name.
 */
export const MCP_INPUT_SECRET = { prefix: 'gatewayStudio.mcp.input.', version: 1 } as const;

export function mcpInputSlot(source: string, id: string): string {
  return `${MCP_INPUT_SECRET.prefix}${source}#${id}`;
}

/** Secret storage: this session's token of our own MCP server, for the snippet external agents use. */
export const MCP_SERVER_TOKEN_SECRET = 'gatewayStudio.mcpServer.token';
