// Where every customization reader plugs into the one Customizations list (issue 37 item 7): one
// line per reader. A reader offers a `CustomizationSourceProvider` (src/contracts/customizations.ts)
// from its own capability; this file only lists them.
import type { CustomizationSourceProvider } from '../../contracts/customizations';
import type { Conversation } from '../../shared/protocol';
import { instructionsProvider } from '../prompt/vscode/instructionsProvider';
import type { PromptContext } from '../prompt/vscode/promptContext';

/** What the readers are built from: the chat's prompt context and its shown conversation. */
export interface CustomizationParts {
  readonly prompt: PromptContext;
  readonly shown: () => Conversation | undefined;
  /** The other readers' providers (prompt files, skills, agents, hooks, command rules). */
  readonly more: readonly CustomizationSourceProvider[];
}

export function customizationProviders(p: CustomizationParts): CustomizationSourceProvider[] {
  return [
    // Rules and instructions: AGENTS.md, CLAUDE.md, copilot-instructions, *.instructions.md, .claude/rules, .gatewaystudio/rules.
    instructionsProvider(p.prompt, p.shown),
    ...p.more,
  ];
}
