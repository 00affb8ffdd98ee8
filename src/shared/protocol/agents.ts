/**
 * The agent picker in the chat header and the handoff buttons under an answer (`chat/agents`).
 * The conversation says which agent it runs as (`Conversation.agent`); the host sends the list
 * and takes a pick or a handoff. Names, descriptions and handoffs only: an agent file's path and
 * instructions stay on the host.
 */
import * as z from '../zod';
import { requestId } from './fields';

const text = (max: number) => z.string().check(z.maxLength(max));

export const agentHandoffSchema = z.object({
  label: text(200),
  agent: text(200),
  prompt: text(10_000),
  send: z.boolean(),
  model: z.optional(text(200)),
});
export type AgentHandoff = z.infer<typeof agentHandoffSchema>;

export const agentEntrySchema = z.object({
  id: text(200),
  name: text(200),
  description: text(1000),
  builtin: z.boolean(),
  /** The model its turns use when it names one (the picker's tooltip says so: it may cost more). */
  model: z.optional(text(200)),
  argumentHint: z.optional(text(500)),
  handoffs: z.array(agentHandoffSchema),
});
export type AgentEntry = z.infer<typeof agentEntrySchema>;

/** Host -> webview. */
export const agentsHostMessages = [
  /** Every agent the picker offers (built-ins first); handoff targets may be among the hidden. */
  z.object({ type: z.literal('agents/list'), agents: z.array(agentEntrySchema) }),
] as const;

/** Webview -> host. */
export const agentsWebviewMessages = [
  /** The conversation runs as this agent from its next turn on. */
  z.object({ type: z.literal('agents/select'), id: text(200).check(z.minLength(1)) }),
  /** A handoff with `send`: switch to its agent and send its prompt as the next question. */
  z.object({
    type: z.literal('agents/handoff'),
    requestId,
    agent: text(200).check(z.minLength(1)),
    prompt: text(10_000),
    model: z.optional(text(200)),
  }),
] as const;
