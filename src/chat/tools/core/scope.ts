/**
 * A tool executor narrowed to the tools one turn may use (an agent's list, a prompt file's,
 * the model's tool mode): only those are offered, a forced `tool_choice` outside them is dropped,
 * and the runner refuses a call to any other tool, should the model make one anyway (it may know
 * the name from earlier in the conversation). The narrowing only removes: what is not enabled
 * is not offered whatever the scope says.
 */
import type { ToolDefinition } from '../../../api/chat/wire';
import type { ToolAllow, ToolExecutionContext, ToolExecutor } from './seam';

export type { ToolAllow } from './seam';

/** What a refused call answers the model. */
export const notAllowedMessage = (name: string, who: string): string =>
  `The tool ${name} is not available to ${who}, so the call was not run. Continue with the tools you were given, or tell the user what you would need.`;

export function scopeExecutor(inner: ToolExecutor, allow: ToolAllow, who: string): ToolExecutor {
  const readOnlyNames = () => new Set((inner.readOnlyDefinitions?.() ?? []).map((d) => d.function.name));
  const keep = (defs: ToolDefinition[], ro: Set<string>) =>
    defs.filter((d) => allow(d.function.name, ro.has(d.function.name)));
  return {
    definitions: () => keep(inner.definitions(), readOnlyNames()),
    readOnlyDefinitions: () => {
      const ro = readOnlyNames();
      return keep(inner.readOnlyDefinitions?.() ?? [], ro);
    },
    toolChoice: (o) => {
      const c = inner.toolChoice(o);
      if (typeof c !== 'object') return c;
      const name = c.function.name;
      return allow(name, readOnlyNames().has(name)) ? c : undefined;
    },
    execute: (calls, ctx: ToolExecutionContext) => inner.execute(calls, { ...ctx, allowed: allow, allowedFor: who }),
  };
}
