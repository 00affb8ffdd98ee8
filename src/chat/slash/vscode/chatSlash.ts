import type * as vscode from 'vscode';
import type { CustomizationSourceProvider } from '../../../contracts/customizations';
import type { Routes } from '../../conversation/core/routes';
import type { SkillLibrary } from '../../tools/core/builtin/loadSkill';
import type { SlashCommands, SlashOptions } from './slashCommands';

/**
 * The `/` commands and skills as the chat uses them: the menu's list, a message's command, the
 * skills of the system prompt and of `load_skill`, and the two sources of the customizations
 * list. The reading (with the YAML parser) is imported on first use, a chunk of its own: this
 * file only imports types.
 */
export class ChatSlash implements vscode.Disposable {
  private loading: Promise<SlashCommands> | undefined;
  private loaded: SlashCommands | undefined;

  constructor(private readonly o: SlashOptions & { notice(text: string): void }) {}

  /** A line under the composer (a refused link, a tool name not known). */
  notice(text: string): void {
    this.o.notice(text);
  }

  /** The commands, loaded on the first call. */
  get commands(): Promise<SlashCommands> {
    return (this.loading ??= import('./slashCommands').then(({ SlashCommands: Commands }) => {
      this.loaded = new Commands(this.o);
      return this.loaded;
    }));
  }

  readonly routes: Routes<'slash/list'> = {
    'slash/list': async (_m, reply) => reply({ type: 'slash/commands', items: await (await this.commands).items() }),
  };

  /** What load_skill reads: the skills as last listed (the system prompt lists them before each request). */
  readonly library: SkillLibrary = {
    modelSkills: () => this.loaded?.modelSkills() ?? [],
    load: async (name, file) => (await this.commands).load(name, file),
  };

  /** The skills the model is told of, for the system prompt of a request. */
  async skillSummaries(): Promise<{ name: string; description: string }[]> {
    return (await this.commands).skillSummaries();
  }

  /** Prompt files and skills for the one list of customization sources. */
  readonly providers: readonly CustomizationSourceProvider[] = [
    { kind: 'promptFile', list: async () => (await this.commands).sources('promptFile') },
    { kind: 'skill', list: async () => (await this.commands).sources('skill') },
  ];

  dispose(): void {
    this.loading = undefined;
  }
}
