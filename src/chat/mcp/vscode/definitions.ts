/**
 * The MCP server definitions, only at the documented places: in each workspace folder `.mcp.json`
 * and `.vscode/mcp.json`; for the user the `gatewayStudio.mcp.servers` setting (their own settings
 * only: a repository's value is ignored). Workspace definitions are approved by their exact
 * content (../core/trust), asked in a modal that shows what would run; a declined definition is
 * not asked again in this window until it changes.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CustomizationProblem, CustomizationSource } from '../../../contracts/customizations';
import { approvedMcpServersKey } from '../../../contracts/persistedState/mcp';
import type { PersistedState } from '../../../platform/persistedState';
import { settingLayers } from '../../../platform/userSettings';
import { linkOutOfWorkspace } from '../../../platform/workspaceLinks';
import { parseMcpFile, readMcpConfig, type McpConfig, type McpServerDef } from '../core/config';
import { approvalKey, definitionHash, startVerdict } from '../core/trust';

/** A definitions file larger than this is not read (they are a few KB). */
const MAX_FILE_BYTES = 1024 * 1024;
export const USER_SETTING = 'gatewayStudio.mcp.servers';
/** The files, in the order a name found twice keeps its first definition. */
export const WORKSPACE_FILES = ['.vscode/mcp.json', '.mcp.json'] as const;

export interface ReadFile {
  path: string;
  scope: 'workspace' | 'user';
  config: McpConfig;
}

export class McpDefinitions {
  /** Per approval key, the hash declined in this window. */
  private readonly declined = new Map<string, string>();
  private readonly asking = new Map<string, Promise<boolean>>();

  constructor(private readonly o: { state: PersistedState; isTrusted: () => boolean; log: (line: string) => void }) {}

  /** Every file and the user's list, read now. */
  async read(): Promise<ReadFile[]> {
    const out: ReadFile[] = [];
    for (const f of (vscode.workspace.workspaceFolders ?? []).filter((x) => x.uri.scheme === 'file')) {
      for (const rel of WORKSPACE_FILES) {
        const p = path.join(f.uri.fsPath, ...rel.split('/'));
        const text = await readText(p);
        if (text === undefined) continue;
        const where = { scope: 'workspace' as const, source: p, folder: f.uri.fsPath };
        const config = typeof text === 'string' ? parseMcpFile(text, where) : problemOnly(text.problem);
        out.push({ path: p, scope: 'workspace', config });
      }
    }
    const layers = settingLayers('mcp.servers');
    if (
      layers.workspaceValue !== undefined ||
      layers.workspaceFolderValue !== undefined ||
      layers.remoteValue !== undefined
    ) {
      this.o.log(
        `${USER_SETTING} set by the workspace or the remote machine is ignored: only your user settings count.`,
      );
    }
    if (layers.globalValue !== undefined) {
      const config = readMcpConfig({ servers: layers.globalValue }, { scope: 'user', source: USER_SETTING });
      out.push({ path: USER_SETTING, scope: 'user', config });
    }
    return out;
  }

  /** Whether `d` may start now; asks about a workspace definition not approved yet. */
  async mayStart(d: McpServerDef): Promise<boolean> {
    const key = approvalKey(d);
    const hash = definitionHash(d);
    const v = startVerdict(d, {
      workspaceTrusted: this.o.isTrusted(),
      approvedHash: this.o.state.get(approvedMcpServersKey)[key],
      ...(this.declined.has(key) ? { declinedHash: this.declined.get(key) } : {}),
    });
    if (v.start) return true;
    if (!v.ask) return false;
    const asked = `${key}\n${hash}`;
    let p = this.asking.get(asked);
    if (!p) {
      p = this.modal(d, v.why === 'changed').finally(() => this.asking.delete(asked));
      this.asking.set(asked, p);
    }
    return p;
  }

  private async modal(d: McpServerDef, changed: boolean): Promise<boolean> {
    const key = approvalKey(d);
    const hash = definitionHash(d);
    const allow = vscode.l10n.t('Allow and start');
    const file = vscode.workspace.asRelativePath(d.source);
    const pick = await vscode.window.showWarningMessage(
      changed
        ? vscode.l10n.t('The MCP server "{0}" in {1} changed. Start it?', d.name, file)
        : vscode.l10n.t('Start the MCP server "{0}" from {1}?', d.name, file),
      {
        modal: true,
        detail: vscode.l10n.t(
          'This workspace file runs a program on your machine (or connects to an address) and offers its tools to the agent. Allow it only if you trust what it does; a change to its definition asks again.\n\n{0}',
          describe(d),
        ),
      },
      allow,
    );
    if (pick !== allow) {
      this.declined.set(key, hash);
      return false;
    }
    await this.o.state.set(approvedMcpServersKey, { ...this.o.state.get(approvedMcpServersKey), [key]: hash });
    return true;
  }

  /** The files and servers for Gateway Studio: Show Customizations. */
  async list(state: (d: McpServerDef) => { on: boolean; why: string }): Promise<CustomizationSource[]> {
    const out: CustomizationSource[] = [];
    for (const f of await this.read()) {
      if (f.config.servers.length === 0) {
        const why = vscode.l10n.t('No server could be read.');
        out.push({
          kind: 'mcpServer',
          name: label(f.path),
          path: f.path,
          scope: f.scope,
          state: 'off',
          why,
          problems: f.config.problems,
        });
      }
      for (const [i, d] of f.config.servers.entries()) {
        const s = state(d);
        out.push({
          kind: 'mcpServer',
          name: d.name,
          path: f.path,
          scope: f.scope,
          state: s.on ? 'applies' : 'off',
          why: s.why,
          problems: i === 0 ? f.config.problems : [],
        });
      }
    }
    return out;
  }
}

/** What would run, as the approval shows it: the command line or address, env and header names. */
export function describe(d: McpServerDef): string {
  if (d.type === 'stdio') {
    const lines = [[d.command, ...d.args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')];
    const env = Object.entries(d.env).map(([k, v]) => `${k}=${v}`);
    if (env.length > 0) lines.push(vscode.l10n.t('Environment: {0}', env.join(', ')));
    if (d.envFile) lines.push(vscode.l10n.t('Environment file: {0}', d.envFile));
    if (d.cwd) lines.push(vscode.l10n.t('Folder: {0}', d.cwd));
    return lines.join('\n');
  }
  const headers = Object.keys(d.headers);
  return [d.url, ...(headers.length > 0 ? [vscode.l10n.t('Headers: {0}', headers.join(', '))] : [])].join('\n');
}

function label(p: string): string {
  return p === USER_SETTING ? p : vscode.workspace.asRelativePath(p);
}

function problemOnly(message: string): McpConfig {
  const problems: CustomizationProblem[] = [{ message }];
  return { servers: [], inputs: [], problems };
}

async function readText(p: string): Promise<string | { problem: string } | undefined> {
  let stat;
  try {
    stat = await fs.stat(p);
  } catch {
    return undefined;
  }
  if (!stat.isFile()) return undefined;
  if ((await linkOutOfWorkspace(vscode.Uri.file(p))) !== undefined)
    return { problem: vscode.l10n.t('This file is a link that leads out of the workspace, so it is not read.') };
  if (stat.size > MAX_FILE_BYTES)
    return { problem: vscode.l10n.t('This file is larger than 1 MB, so it is not read.') };
  return fs.readFile(p, 'utf8');
}
