import { FeatureToolError, type MediaJobSource, type FeatureTool } from '../../../contracts/featureTools';
import { ToolError, type Tool } from '../core/runner';

/** A run's result asks its card to keep following a task of the tool's feature. */
export type FollowTask = (conversationId: string, callId: string, key: string, source: MediaJobSource) => void;

/**
 * Another feature's tool (see `src/contracts/featureTools.ts`) as one of the chat's tools. Its
 * refusals ({@link FeatureToolError}) become {@link ToolError}s, so the model reads them as the
 * tool's answer and the card shows them, like a built-in tool's. A result that names a task to
 * follow goes to `follow` (the chat's card then shows that task).
 */
export function featureTool(t: FeatureTool, follow?: FollowTask): Tool {
  const asToolError = (e: unknown): unknown => (e instanceof FeatureToolError ? new ToolError(e.message) : e);
  return {
    definition: { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } },
    readOnly: t.readOnly,
    async prepare(args, ctx) {
      try {
        const p = await t.prepare(args, { signal: ctx.signal, callId: ctx.callId });
        return {
          ...(p.summary !== undefined ? { summary: p.summary } : {}),
          ...(p.note !== undefined ? { note: p.note } : {}),
          run: async (c) => {
            const r = await p.run({ signal: c.signal, callId: c.callId }).catch((e: unknown) => {
              throw asToolError(e);
            });
            if (r.follow && t.jobs) follow?.(c.conversationId, c.callId, r.follow.key, t.jobs);
            return { content: r.content, ...(r.preview !== undefined ? { preview: r.preview } : {}) };
          },
        };
      } catch (e) {
        throw asToolError(e);
      }
    },
  };
}
