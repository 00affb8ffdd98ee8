import { ToolError, type Tool } from '../runner';
import { str, obj, def, s, later } from './kit';

/**
 * The skills the model may load (the chat's skills capability, `chat/slash`, implements it).
 * Listing a skill puts only its name and description in the system prompt; its instructions and
 * files come through this tool, on the model's call.
 */
export interface SkillLibrary {
  /** The skills the model may load now, as last listed (the system prompt names the same ones). */
  modelSkills(): readonly string[];
  /** The skill's instructions, or one of its files (relative to its folder); rejects with the reason. */
  load(name: string, file?: string): Promise<string>;
}

/** The built-in tool load_skill: read-only, and nothing is read before the call runs. */
export function loadSkill(skills: SkillLibrary): Tool {
  return {
    readOnly: true,
    definition: def(
      'load_skill',
      "Load a skill listed under Skills: its instructions, or with `file` one of the skill's files (relative to its folder). Load a skill before following it.",
      obj(
        {
          name: str('The skill name, as listed.'),
          file: str('Optional: a file of the skill, relative to its folder.'),
        },
        ['name'],
      ),
    ),
    prepare(a) {
      const name = s(a['name']).trim();
      if (!skills.modelSkills().includes(name))
        return Promise.reject(new ToolError(`There is no skill "${name}". Use a name listed under Skills.`));
      const file = s(a['file']).trim();
      return Promise.resolve(
        later(async () => {
          try {
            return await skills.load(name, file || undefined);
          } catch (e) {
            throw new ToolError(e instanceof Error ? e.message : String(e));
          }
        }),
      );
    },
  };
}
