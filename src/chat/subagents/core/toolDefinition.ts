/**
 * The `run_subagent` tool's wire definition, apart from its code: the chat lists the tool at once,
 * and the code (./subagentTool.ts and what it imports) loads on the first call.
 */
import type { ToolDefinition } from '../../../api/chat/wire';
import { RUN_SUBAGENT } from './definitions';

/** Most tasks in one call. */
export const MAX_TASKS = 8;

const taskProps = {
  agent: {
    type: 'string',
    description: 'The subagent: "Explore" (read-only investigation) or a custom agent by name.',
  },
  task: {
    type: 'string',
    description: 'Everything the subagent needs to know: it sees nothing of this conversation. Say what to report.',
  },
  model: { type: 'string', description: "Optional: a model id (default: the agent's, the utility model, or yours)." },
  profile: {
    type: 'string',
    description: "Optional: a gateway profile id for the model (default: this conversation's).",
  },
};

export const SUBAGENT_TOOL_DEFINITION: ToolDefinition = {
  type: 'function',
  function: {
    name: RUN_SUBAGENT,
    description:
      'Hands a task to a subagent that works in its own context (often on a cheaper model) and returns only its summary. Use Explore to read and search many files without filling your own context. Give "tasks" to run several at once.',
    parameters: {
      type: 'object',
      properties: {
        ...taskProps,
        tasks: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_TASKS,
          description: 'Several subagent runs at once (instead of agent and task).',
          items: { type: 'object', properties: taskProps, required: ['agent', 'task'], additionalProperties: false },
        },
      },
      additionalProperties: false,
    },
  },
};
