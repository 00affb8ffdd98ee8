/**
 * The `/` commands on the VS Code side: the places to read (workspace folders, the user's home,
 * VS Code's user prompts folder), Restricted Mode, the input boxes of `${input:…}`, the active
 * editor for `${selection}` and `${file}`, and a message's `/name rest` turned into the question
 * sent. Loaded on first use (chatSlash.ts), with the YAML reader it needs.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CustomizationSource } from '../../../contracts/customizations';
import { activeEditors } from '../../../platform/activeEditor';
import type { SkillLibrary } from '../../tools/core/builtin/loadSkill';
import type { SlashItem } from '../../../shared/protocol';
import { modelSkills, readCatalog, slashItems, type Catalog } from '../core/catalog';
import { expandPromptFile, matchModel, parseCommand, skillMessage } from '../core/expand';
import { LINK_LIMIT, type LinkRefusal } from '../core/links';
import { loadSkillBody, readSkillFile, type FoundSkill } from '../core/skillFiles';

/** A catalog this fresh is used again (every request asks for the skills; listing reads disks). */
const FRESH_MS = 2000;

export interface SlashOptions {
  isTrusted(): boolean;
  /** `context.globalStorageUri`: VS Code's user prompts folder is beside its parent. */
  globalStorage?: vscode.Uri;
  /** The tools the user has enabled and every tool listed, by wire name. */
  tools(): { enabled: string[]; known: string[] };
  /** The gateway's chat model ids as last listed (empty when not loaded). */
  modelIds(): string[];
  /** Commands another capability adds (the MCP servers' prompts), after the files' own. */
  extra?: ExtraSlash;
}

export interface ExtraSlash {
  items(): SlashItem[];
  /** `/name rest` as its question's text; undefined when it is not one of these commands. */
  expand(name: string, rest: string): Promise<{ text: string; notes: string[] } | 'cancelled' | undefined>;
}

/** What a `/command` message becomes. */
export interface SlashQuestion {
  text: string;
  /** Files the prompt file links to, inside the workspace (attached like @-mentions). */
  attach: vscode.Uri[];
  /** One line each: links refused, tool names not known. */
  notes: string[];
  model?: string;
  agent?: string;
  tools?: string[];
}

export class SlashCommands implements SkillLibrary {
  private last: { at: number; catalog: Catalog } | undefined;
  private reading: Promise<Catalog> | undefined;

  constructor(private readonly o: SlashOptions) {}

  private roots(): string[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  }

  private userPrompts(): string | undefined {
    const g = this.o.globalStorage;
    // <user data>/User/globalStorage/<extension id> -> <user data>/User/prompts
    return g?.scheme === 'file' ? path.join(path.dirname(path.dirname(g.fsPath)), 'prompts') : undefined;
  }

  /** The catalog, read again when older than {@link FRESH_MS} or when `fresh`. */
  catalog(fresh = false): Promise<Catalog> {
    if (!fresh && this.last && Date.now() - this.last.at < FRESH_MS) return Promise.resolve(this.last.catalog);
    this.reading ??= readCatalog({
      roots: this.roots(),
      trusted: this.o.isTrusted(),
      home: os.homedir(),
      ...(this.userPrompts() ? { userPrompts: this.userPrompts()! } : {}),
    }).then(
      (catalog) => {
        this.last = { at: Date.now(), catalog };
        this.reading = undefined;
        return catalog;
      },
      (e: unknown) => {
        this.reading = undefined;
        throw e;
      },
    );
    return this.reading;
  }

  async items(): Promise<SlashItem[]> {
    const own = slashItems(await this.catalog(true));
    const names = new Set(own.map((i) => i.name));
    return [...own, ...(this.o.extra?.items() ?? []).filter((i) => !names.has(i.name))];
  }

  async sources(kind: 'promptFile' | 'skill'): Promise<CustomizationSource[]> {
    return (await this.catalog()).sources.filter((s) => s.kind === kind);
  }

  /** Name and description of each skill the model may load, for the system prompt. */
  async skillSummaries(): Promise<{ name: string; description: string }[]> {
    return modelSkills(await this.catalog()).map((s) => ({ name: s.header.name, description: s.header.description }));
  }

  modelSkills(): readonly string[] {
    return this.last ? modelSkills(this.last.catalog).map((s) => s.header.name) : [];
  }

  async load(name: string, file?: string): Promise<string> {
    const skill = modelSkills(await this.catalog()).find((s) => s.header.name === name);
    if (!skill) throw new Error(`There is no skill "${name}".`);
    return file ? readSkillFile(skill, file, this.roots()) : loadSkillBody(skill, this.roots());
  }

  /**
   * `text` as a command: undefined when it names none (it is sent as typed), `cancelled` when the
   * user closed an input box.
   */
  async expand(text: string): Promise<SlashQuestion | 'cancelled' | undefined> {
    const cmd = parseCommand(text);
    if (!cmd) return undefined;
    const catalog = await this.catalog(true);
    const prompt = catalog.prompts.find((p) => p.prompt.name === cmd.name);
    if (prompt) return this.runPrompt(prompt.file, prompt.prompt, cmd.rest);
    const skill = catalog.skills.find((s) => s.header.name === cmd.name && s.header.userInvocable);
    if (skill) return this.runSkill(skill, cmd.rest);
    const extra = await this.o.extra?.expand(cmd.name, cmd.rest);
    return extra === undefined || extra === 'cancelled' ? extra : { ...extra, attach: [] };
  }

  private async runPrompt(
    file: string,
    prompt: Catalog['prompts'][number]['prompt'],
    rest: string,
  ): Promise<SlashQuestion | 'cancelled'> {
    const editor = activeEditors().current();
    const doc = editor?.document;
    const folder =
      (doc && vscode.workspace.getWorkspaceFolder(doc.uri)) ??
      vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file)) ??
      vscode.workspace.workspaceFolders?.[0];
    const tools = this.o.tools();
    const expanded = await expandPromptFile(prompt, rest, {
      file,
      roots: this.roots(),
      ...(doc?.uri.scheme === 'file' ? { editorFile: doc.uri.fsPath } : {}),
      ...(editor ? { selection: doc!.getText(editor.selection) } : {}),
      ...(folder?.uri.scheme === 'file' ? { workspaceFolder: folder.uri.fsPath } : {}),
      ask: (v) => askInput(prompt.name, v.name, v.placeholder),
      enabledTools: tools.enabled,
      knownTools: tools.known,
    });
    if (!expanded) return 'cancelled';
    const notes = expanded.links
      .filter((l) => l.refused)
      .map((l) =>
        vscode.l10n.t('/{0}: the link {1} is not attached: {2}.', prompt.name, l.link, refusalText(l.refused!)),
      );
    if (expanded.unknownTools.length)
      notes.push(
        vscode.l10n.t('/{0}: no tool here is named {1}; ignored.', prompt.name, expanded.unknownTools.join(', ')),
      );
    const model = this.model(prompt.name, expanded.model, notes);
    return {
      text: expanded.text,
      attach: expanded.links.filter((l) => l.absolute).map((l) => vscode.Uri.file(l.absolute!)),
      notes,
      ...(model ? { model } : {}),
      ...(expanded.agent ? { agent: expanded.agent } : {}),
      ...(expanded.tools ? { tools: expanded.tools } : {}),
    };
  }

  private async runSkill(skill: FoundSkill, rest: string): Promise<SlashQuestion> {
    const body = await loadSkillBody(skill, this.roots());
    const notes: string[] = [];
    const model = this.model(skill.header.name, skill.header.model, notes);
    return { text: skillMessage(skill.header.name, body, rest), attach: [], notes, ...(model ? { model } : {}) };
  }

  /** The gateway's model a file names; none (the current model) when the gateway lists no such model. */
  private model(command: string, written: string | undefined, notes: string[]): string | undefined {
    if (!written) return undefined;
    const ids = this.o.modelIds();
    if (ids.length === 0) return written;
    const found = matchModel(written, ids);
    // The file picks what this request costs: the user sees which model it chose.
    notes.push(
      found
        ? vscode.l10n.t('/{0} asks {1} (the model its file names), for this request only.', command, found)
        : vscode.l10n.t('/{0}: the gateway lists no model {1}; the current model answers.', command, written),
    );
    return found;
  }
}

/** One input box per distinct `${input:name}`; undefined when the user closes it. */
function askInput(command: string, name: string, placeholder: string | undefined): Promise<string | undefined> {
  return Promise.resolve(
    vscode.window.showInputBox({
      title: vscode.l10n.t('/{0}: {1}', command, name),
      prompt: vscode.l10n.t('A value for {0} in the prompt file /{1}.', name, command),
      ...(placeholder ? { placeHolder: placeholder } : {}),
      ignoreFocusOut: true,
    }),
  );
}

/** Why a link of a prompt file is not attached, for the line under the composer. */
function refusalText(r: LinkRefusal): string {
  switch (r) {
    case 'outside':
      return vscode.l10n.t('it leads outside the workspace folders');
    case 'missing':
      return vscode.l10n.t('there is no such file');
    case 'loop':
      return vscode.l10n.t('it goes through a loop of links');
    case 'limit':
      return vscode.l10n.t('only the first {0} links are attached', LINK_LIMIT);
    case 'notPath':
    case 'unchecked':
      return vscode.l10n.t('it cannot be checked');
  }
}
