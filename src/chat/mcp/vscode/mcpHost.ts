/**
 * The chat's MCP client in VS Code: the definitions read and watched, the servers started in the
 * background (a chat request never waits for one), their tools offered to the chat's tool runner,
 * `${input:…}` asked once and kept in secret storage, the servers' logs in an output channel, and
 * the servers view (state, counts, start, stop, restart, log, read-only trust).
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { CustomizationSource, CustomizationSourceProvider } from '../../../contracts/customizations';
import { mcpInputSlot, mcpReadOnlyServersKey } from '../../../contracts/persistedState/mcp';
import { apiKeySlot } from '../../../contracts/persistedState/platform';
import { DEFAULT_PROFILE_ID } from '../../../platform/profiles';
import { persistedState, type PersistedState } from '../../../platform/persistedState';
import type { Services } from '../../../platform/services';
import { userOrDefault } from '../../../platform/userSettings';
import type { Tool } from '../../tools/core/runner';
import type { McpInput, McpServerDef, VariableValues } from '../core/config';
import { DEFAULT_MAX_MCP_TOOLS, listMcpTools, mcpChatTool, offeredByVscode } from '../core/mcpTools';
import { McpPool } from '../core/pool';
import type { ResultImageOptions } from '../core/toolResult';
import { McpChatContext } from './chatContext';
import { McpDefinitions } from './definitions';
import { showServers } from './serversView';

export interface McpHostOptions {
  isTrusted: () => boolean;
  /** Whether the conversation's model takes images now, and the chat's limit (tool results' images). */
  images: () => ResultImageOptions;
  /** The tool list changed (the chat publishes its tools again). */
  onToolsChanged: () => void;
}

export class McpHost implements vscode.Disposable, CustomizationSourceProvider {
  readonly kind = 'mcpServer' as const;
  readonly pool: McpPool;
  readonly output: vscode.LogOutputChannel;
  /** The running servers' resources and prompts, for the @-picker and the `/` commands. */
  readonly context: McpChatContext;
  private readonly defs: McpDefinitions;
  private readonly state: PersistedState;
  private readonly inputs = new Map<string, readonly McpInput[]>();
  private readonly subs: vscode.Disposable[] = [];
  private lastLeftOut = '';
  private reloading: Promise<void> = Promise.resolve();

  constructor(
    private readonly s: Services,
    private readonly o: McpHostOptions,
  ) {
    this.state = persistedState(s.context);
    this.output = vscode.window.createOutputChannel('Gateway Studio: MCP', { log: true });
    const log = (line: string) => this.output.info(line);
    this.defs = new McpDefinitions({ state: this.state, isTrusted: o.isTrusted, log });
    this.pool = new McpPool({
      client: { name: 'Gateway Studio', version: String(s.context.extension?.packageJSON?.version ?? '0') },
      log,
      onChange: () => o.onToolsChanged(),
      variables: (d) => this.variables(d),
      secrets: () => this.ourKeys(),
      mayStart: (d) => this.defs.mayStart(d),
    });
    this.context = new McpChatContext(() => this.pool.connections());
    const reload = () => void this.reload();
    const watcher = vscode.workspace.createFileSystemWatcher('**/{.mcp.json,.vscode/mcp.json}');
    this.subs.push(
      this.output,
      watcher,
      watcher.onDidCreate(reload),
      watcher.onDidChange(reload),
      watcher.onDidDelete(reload),
      vscode.workspace.onDidChangeWorkspaceFolders(reload),
      vscode.workspace.onDidGrantWorkspaceTrust(reload),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('gatewayStudio.mcp')) reload();
      }),
    );
  }

  /** Reads the definitions again and starts, in the background, what may start. */
  reload(): Promise<void> {
    this.reloading = this.reloading.then(async () => {
      const files = await this.defs.read();
      this.inputs.clear();
      for (const f of files) {
        this.inputs.set(f.path, f.config.inputs);
        for (const p of f.config.problems) this.output.warn(`${f.path}: ${p.message}`);
      }
      await this.pool.setDefinitions(files.flatMap((f) => f.config.servers));
    });
    void this.reloading.then(() => this.pool.startAll());
    return this.reloading;
  }

  /** The running servers' tools as the chat's tools; `taken` holds the names in use already. */
  tools(taken: ReadonlySet<string>): Tool[] {
    const vscodeNames = new Set(vscode.lm.tools.map((t) => t.name.toLowerCase()));
    const max = Number(userOrDefault('mcp.maxTools')) || DEFAULT_MAX_MCP_TOOLS;
    const connections = this.pool.connections();
    const byName = new Map(connections.map((c) => [c.name, c]));
    const listing = listMcpTools(connections, {
      taken,
      max,
      skip: (server, tool) => offeredByVscode(vscodeNames, [server, byName.get(server)?.serverInfoName], tool),
    });
    const leftOut = listing.leftOut.join(', ');
    if (leftOut !== this.lastLeftOut) {
      this.lastLeftOut = leftOut;
      if (leftOut !== '') {
        this.output.warn(
          `Only ${max} MCP tools are offered to the model (gatewayStudio.mcp.maxTools); left out: ${leftOut}`,
        );
        void vscode.window.showWarningMessage(
          vscode.l10n.t(
            '{0} MCP tools were left out of the model\'s tools (at most {1}): see the "Gateway Studio: MCP" output.',
            listing.leftOut.length,
            max,
          ),
        );
      }
    }
    const summary = (server: string, tool: string) => vscode.l10n.t('Tool "{0}" of the MCP server "{1}"', tool, server);
    return listing.offered.map((e) => mcpChatTool(e, byName.get(e.server)!, { summary, images: this.o.images }));
  }

  /** Whether a tool's key is covered by its server's "read-only tools run without asking". */
  trusted(key: string): boolean {
    const m = /^mcp:([^/]+)\/(.*)$/s.exec(key);
    if (!m || !this.state.get(mcpReadOnlyServersKey).includes(m[1]!)) return false;
    const c = this.pool.connections().find((x) => x.name === m[1] && x.state === 'running');
    return c?.tools.find((t) => t.name === m[2])?.annotations?.readOnlyHint === true;
  }

  async setReadOnlyTrusted(server: string, on: boolean): Promise<void> {
    const now = new Set(this.state.get(mcpReadOnlyServersKey));
    if (on) now.add(server);
    else now.delete(server);
    await this.state.set(mcpReadOnlyServersKey, [...now].sort());
    this.o.onToolsChanged();
  }

  readOnlyTrusted(server: string): boolean {
    return this.state.get(mcpReadOnlyServersKey).includes(server);
  }

  showServers(): Promise<void> {
    return showServers(this);
  }

  async list(): Promise<readonly CustomizationSource[]> {
    const entries = new Map(this.pool.list().map((e) => [e.def, e]));
    return this.defs.list((d) => {
      const e = [...entries.values()].find((x) => x.def.name === d.name && x.def.source === d.source);
      const c = e?.connection;
      if (c?.state === 'running') return { on: true, why: vscode.l10n.t('Running: {0} tool(s).', c.tools.length) };
      if (c?.state === 'failed') return { on: false, why: vscode.l10n.t('Failed: {0}', c.error ?? '') };
      if (e?.blocked) return { on: false, why: e.blocked };
      return {
        on: false,
        why: e ? vscode.l10n.t('Not started.') : vscode.l10n.t('Another definition of this name comes first.'),
      };
    });
  }

  private variables(d: McpServerDef): VariableValues {
    return {
      ...(d.folder !== undefined
        ? { workspaceFolder: d.folder }
        : vscode.workspace.workspaceFolders?.[0]
          ? { workspaceFolder: vscode.workspace.workspaceFolders[0].uri.fsPath }
          : {}),
      userHome: os.homedir(),
      env: (name) => process.env[name],
      input: (id) => this.input(d, id),
    };
  }

  /** An input's value: kept in secret storage per declaring file, asked once. */
  private async input(d: McpServerDef, id: string): Promise<string | undefined> {
    const slot = mcpInputSlot(d.source, id);
    const kept = await this.s.context.secrets.get(slot);
    if (kept !== undefined) return kept;
    const declared = this.inputs.get(d.source)?.find((i) => i.id === id);
    const value = await vscode.window.showInputBox({
      title: vscode.l10n.t('MCP server "{0}"', d.name),
      prompt: declared?.description ?? id,
      password: declared?.password ?? true,
      ignoreFocusOut: true,
    });
    if (value !== undefined) await this.s.context.secrets.store(slot, value);
    return value;
  }

  /** Every profile's gateway key: none may reach a server. */
  private async ourKeys(): Promise<string[]> {
    await this.s.profiles.ready().catch(() => undefined);
    const keys = await Promise.all(
      this.s.profiles
        .list()
        .profiles.map((p) => this.s.context.secrets.get(apiKeySlot(p.id, p.id === DEFAULT_PROFILE_ID))),
    );
    const active = await this.s.keys.get();
    return [...keys, active].filter((k): k is string => typeof k === 'string' && k !== '');
  }

  dispose(): void {
    for (const d of this.subs) d.dispose();
    void this.pool.dispose();
  }
}
