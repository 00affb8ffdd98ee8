/**
 * Our MCP server as VS Code's MCP registry sees it: started on the registry's first resolve (its
 * own chunk: the SDK), on 127.0.0.1 with a token made for this session and handed to VS Code in
 * the definition's headers only (never written to settings). Billed calls ask in a modal.
 */
import * as vscode from 'vscode';
import type { FeatureTool } from '../../../contracts/featureTools';
import type { Services } from '../../../platform/services';
import { MCP_SERVER_TOKEN_SECRET } from '../../../contracts/persistedState/mcp';
import { newServerToken, startToolServer, type RunningToolServer } from '../core/toolServer';

export class OurMcpServer implements vscode.Disposable {
  private running: Promise<RunningToolServer> | undefined;
  private readonly token = newServerToken();

  constructor(private readonly s: Services) {
    s.context.subscriptions.push(this);
  }

  /** Listed without starting anything: the address is filled in when VS Code resolves it. */
  definitions(): vscode.McpServerDefinition[] {
    const version = String(this.s.context.extension?.packageJSON?.version ?? '0');
    return [
      new vscode.McpHttpServerDefinition('Gateway Studio', vscode.Uri.parse('http://127.0.0.1/mcp'), {}, version),
    ];
  }

  /** The definition with the running server's address and this session's token. */
  async resolve(d: vscode.McpServerDefinition): Promise<vscode.McpServerDefinition> {
    if (!(d instanceof vscode.McpHttpServerDefinition)) return d;
    const server = await (this.running ??= this.start());
    d.uri = vscode.Uri.parse(server.url);
    d.headers = { ...d.headers, Authorization: `Bearer ${this.token}` };
    return d;
  }

  private start(): Promise<RunningToolServer> {
    const version = String(this.s.context.extension?.packageJSON?.version ?? '0');
    return startToolServer({
      tools: () => this.s.chatTools,
      confirm: (tool, summary) => confirm(tool, summary),
      token: this.token,
      version,
      log: (l) => this.s.log.warn(l),
    }).then((r) => {
      this.s.log.info(`MCP server for other agents: listening on ${r.url}`);
      return r;
    });
  }

  /**
   * Copies an `mcp.json` snippet for a command-line agent: this session's address and token. The
   * token is this session's (kept in memory and in secret storage for the session), never written
   * to settings; the snippet stops working when VS Code closes.
   */
  async copySnippet(): Promise<void> {
    const server = await (this.running ??= this.start());
    await this.s.context.secrets.store(MCP_SERVER_TOKEN_SECRET, this.token);
    const snippet = {
      servers: {
        'gateway-studio': { type: 'http', url: server.url, headers: { Authorization: `Bearer ${this.token}` } },
      },
    };
    await vscode.env.clipboard.writeText(JSON.stringify(snippet, null, 2));
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        "Copied an mcp.json entry for Gateway Studio's MCP server. It holds a token for this VS Code session: keep it out of repositories.",
      ),
    );
  }

  dispose(): void {
    void this.running?.then((r) => r.close());
  }
}

/** Our own confirmation of a call that changes something or costs money, with its price. */
async function confirm(tool: FeatureTool, summary: string | undefined): Promise<boolean> {
  const run = vscode.l10n.t('Run');
  const pick = await vscode.window.showWarningMessage(
    vscode.l10n.t('An agent asks Gateway Studio to run {0}.', tool.name),
    { modal: true, detail: summary ?? tool.description },
    run,
  );
  return pick === run;
}
