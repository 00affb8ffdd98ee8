/**
 * The chat's agents on the VS Code side: the built-in ones with the models the user's own
 * settings give them, and the agent files of the workspace folders and the documented user
 * folders, read when first asked and again after a watcher saw one change. The page gets the
 * picker's list (`agents/list`); a pick is stored with the conversation, and a handoff switches
 * and sends. Every file is also a customization source, with why it is off when it is.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CustomizationSource, CustomizationSourceProvider } from '../../../contracts/customizations';
import { userValue } from '../../../platform/userSettings';
import { leadsToSecret, linkOutOfWorkspace } from '../../../platform/workspaceLinks';
import type { AgentEntry, HostMessage, WebviewMessage } from '../../../shared/protocol';
import type { Routes } from '../../conversation/core/routes';
import {
  builtinAgents,
  DEFAULT_AGENT_ID,
  findAgent,
  type AgentCatalog,
  type AgentDefinition,
  type BuiltinAgentId,
} from '../core/agent';
import type { ParsedAgent } from '../core/agentFile';
import {
  AGENT_FOLDERS,
  assembleAgents,
  isAgentFileName,
  MAX_AGENT_FILE_BYTES,
  type AgentList,
  type FoundAgentFile,
} from '../core/agentList';

type AgentMessageType = Extract<WebviewMessage['type'], `agents/${string}`>;

/** What the agents need of the chat. */
export interface ChatAgentsDeps {
  broadcast(m: HostMessage): void;
  /** The shown conversation's agent (undefined: Agent). */
  activeAgent(): string | undefined;
  setAgent(id: string): Promise<void>;
  /** Sends a question as the composer would, with the agent and model it asks for. */
  send(requestId: string, q: { text: string; agent: string; model?: string }): Promise<void>;
  warn(msg: string): void;
  /** `vscode.workspace.isTrusted`; tests stand in for Restricted Mode with their own. */
  isTrusted?: () => boolean;
}

const SETTINGS: Record<BuiltinAgentId, string> = {
  agent: 'agents.agentModel',
  ask: 'agents.askModel',
  plan: 'agents.planModel',
};

export class ChatAgents implements AgentCatalog, vscode.Disposable {
  private cached: Promise<AgentList> | undefined;
  /** The page's agent picks, applied in order; a send waits for them (see selected()). */
  private selecting: Promise<void> = Promise.resolve();
  private readonly disposables: vscode.Disposable[] = [];
  /** The page's messages this capability handles. */
  readonly routes: Routes<AgentMessageType>;
  /** The agent files for the one list of customizations. */
  readonly sources: CustomizationSourceProvider = { kind: 'agent', list: () => this.sourceList() };

  constructor(private readonly d: ChatAgentsDeps) {
    this.routes = {
      'agents/select': (m) =>
        (this.selecting = this.selecting
          .catch(() => undefined)
          .then(async () => {
            await this.d.setAgent(((await this.get(m.id)) ?? { id: DEFAULT_AGENT_ID }).id);
          })),
      'agents/handoff': async (m) => {
        const target = (await this.get(m.agent))?.id ?? DEFAULT_AGENT_ID;
        await this.d.setAgent(target);
        await this.d.send(m.requestId, { text: m.prompt, agent: target, ...(m.model ? { model: m.model } : {}) });
      },
    };
    const changed = () => {
      this.cached = undefined;
      void this.post();
    };
    this.watch(changed);
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.watch(changed);
        changed();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(changed),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('gatewayStudio.agents')) changed();
      }),
    );
  }

  /** Settles once every pick the page sent so far is applied (a failed one included). */
  selected(): Promise<void> {
    return this.selecting.catch(() => undefined);
  }

  async get(id: string): Promise<AgentDefinition | undefined> {
    return findAgent((await this.load()).agents, id);
  }

  /** The picker's list, for a page that (re)loads and after any change. */
  async message(): Promise<HostMessage> {
    const { agents } = await this.load();
    return { type: 'agents/list', agents: agents.filter((a) => a.userInvocable || a.builtin).map(entry) };
  }

  async post(): Promise<void> {
    this.d.broadcast(await this.message());
  }

  private async sourceList(): Promise<CustomizationSource[]> {
    const files = await this.readFiles();
    return assembleAgents(this.builtins(), files, {
      trusted: this.trusted(),
      active: this.d.activeAgent() ?? DEFAULT_AGENT_ID,
    }).sources;
  }

  private load(): Promise<AgentList> {
    return (this.cached ??= this.readFiles().then((files) =>
      assembleAgents(this.builtins(), files, { trusted: this.trusted() }),
    ));
  }

  private trusted(): boolean {
    return this.d.isTrusted?.() ?? vscode.workspace.isTrusted;
  }

  /** The built-in agents, localised, with the user's own model settings (a workspace's is ignored). */
  private builtins(): AgentDefinition[] {
    const models: Partial<Record<BuiltinAgentId, string>> = {};
    for (const [id, key] of Object.entries(SETTINGS) as [BuiltinAgentId, string][]) {
      const v = userValue(key);
      if (typeof v === 'string' && v.trim()) models[id] = v.trim();
    }
    return builtinAgents(models).map((a) => ({ ...a, ...BUILTIN_WORDS()[a.id as BuiltinAgentId] }));
  }

  /** Every agent file of the documented folders, in order: workspace folders first, then the user's. */
  private async readFiles(): Promise<FoundAgentFile[]> {
    // The YAML reader is loaded with the first agent file, not with the chat.
    const { parseAgentFile } = await import('../core/agentFile');
    const out: FoundAgentFile[] = [];
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri);
    for (const where of AGENT_FOLDERS) {
      const bases = where.scope === 'workspace' ? folders : [vscode.Uri.file(os.homedir())];
      for (const base of bases) {
        const dir = vscode.Uri.joinPath(base, ...where.dir.split('/'));
        for (const uri of await agentFilesIn(dir)) {
          const source = { path: uri.fsPath, scope: where.scope, format: where.format } as const;
          out.push(await this.readOne(uri, source, parseAgentFile));
        }
      }
    }
    return out;
  }

  private async readOne(
    uri: vscode.Uri,
    source: FoundAgentFile['source'],
    parse: (text: string, s: FoundAgentFile['source'], fileName: string) => ParsedAgent,
  ): Promise<FoundAgentFile> {
    const fileName = path.basename(uri.fsPath);
    const name = fileName.replace(/(\.agent)?\.md$/i, '');
    try {
      // A workspace file that is a link out of the workspace is not read (the one rule for links).
      if (source.scope === 'workspace' && (await linkOutOfWorkspace(uri)) !== undefined)
        return { source, name, refused: vscode.l10n.t('It is a link that leads outside the workspace; not read.') };
      // Its text goes to the model: a link to `.env` beside it would send the secrets.
      if (source.scope === 'workspace' && (await leadsToSecret(uri)))
        return { source, name, refused: vscode.l10n.t('It leads to a file that may hold secrets; not read.') };
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.size > MAX_AGENT_FILE_BYTES)
        return {
          source,
          name,
          refused: vscode.l10n.t('It is larger than {0} KB; not read.', MAX_AGENT_FILE_BYTES / 1024),
        };
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      return { source, parsed: parse(text, source, fileName) };
    } catch (e) {
      this.d.warn(`agents: ${uri.fsPath}: ${e instanceof Error ? e.message : String(e)}`);
      return {
        source,
        name,
        refused: vscode.l10n.t('It could not be read: {0}', e instanceof Error ? e.message : String(e)),
      };
    }
  }

  private watchers: vscode.Disposable[] = [];

  private watch(changed: () => void): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    const bases = [
      ...(vscode.workspace.workspaceFolders ?? []).map((f) => ({ base: f.uri, scope: 'workspace' })),
      { base: vscode.Uri.file(os.homedir()), scope: 'user' },
    ];
    for (const { base, scope } of bases) {
      for (const where of AGENT_FOLDERS.filter((f) => f.scope === scope)) {
        const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, `${where.dir}/*.md`));
        this.watchers.push(w, w.onDidCreate(changed), w.onDidChange(changed), w.onDidDelete(changed));
      }
    }
  }

  dispose(): void {
    for (const w of this.watchers) w.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** The `.md` files of one folder, sorted; none when the folder is missing. */
async function agentFilesIn(dir: vscode.Uri): Promise<vscode.Uri[]> {
  let entries: [string, vscode.FileType][];
  try {
    entries = await vscode.workspace.fs.readDirectory(dir);
  } catch {
    return [];
  }
  return entries
    .filter(([n, t]) => (t & vscode.FileType.File) !== 0 && isAgentFileName(n))
    .map(([n]) => n)
    .sort()
    .map((n) => vscode.Uri.joinPath(dir, n));
}

/** The built-in agents' names, descriptions and handoffs in the user's language. */
function BUILTIN_WORDS(): Record<BuiltinAgentId, Partial<AgentDefinition>> {
  return {
    agent: {
      name: vscode.l10n.t('Agent'),
      description: vscode.l10n.t('Reads, edits and runs commands, asking as your tool settings say.'),
    },
    ask: {
      name: vscode.l10n.t('Ask'),
      description: vscode.l10n.t('Answers questions about the code; changes nothing.'),
    },
    plan: {
      name: vscode.l10n.t('Plan'),
      description: vscode.l10n.t('Reads and searches, then writes a plan; cannot change files or run commands.'),
      handoffs: [
        {
          label: vscode.l10n.t('Start implementing'),
          agent: 'agent',
          prompt: vscode.l10n.t('Implement the plan above.'),
          send: true,
        },
      ],
    },
  };
}

function entry(a: AgentDefinition): AgentEntry {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    builtin: a.builtin,
    ...(a.models[0] ? { model: a.models[0] } : {}),
    ...(a.argumentHint ? { argumentHint: a.argumentHint } : {}),
    handoffs: a.handoffs.map((h) => ({ ...h })),
  };
}
