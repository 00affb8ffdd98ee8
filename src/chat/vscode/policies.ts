/**
 * The hooks and command rules (`src/chat/hooks`) as the chat's tool runner and session see them:
 * small stand-ins that load the real ones on their first call, so neither activation nor the
 * chat's first paint carries them.
 */
import type { CustomizationSourceProvider } from '../../contracts/customizations';
import type { Services } from '../../platform/services';
import { persistedState } from '../../platform/persistedState';
import type { SessionHooks } from '../session/core/sessionDeps';
import type { ToolGate } from '../tools/core/toolGate';
import type { ChatPolicies } from '../hooks/vscode/policies';

export function lazyPolicies(s: Services, isTrusted: () => boolean): ChatPolicies {
  let loading: Promise<ChatPolicies> | undefined;
  const real = () =>
    (loading ??= import('../hooks/vscode/policies').then((m) =>
      m.chatPolicies({ state: persistedState(s.context), isTrusted }),
    ));
  const gate: ToolGate = {
    before: async (c) => (await real()).gate.before(c),
    after: async (c) => (await real()).gate.after(c),
  };
  const session: SessionHooks = {
    promptSubmitted: async (e) => (await real()).session.promptSubmitted(e),
    beforeCompact: async (e) => (await real()).session.beforeCompact(e),
    turnStopped: async (e) => (await real()).session.turnStopped(e),
  };
  const source = (i: number, kind: CustomizationSourceProvider['kind']): CustomizationSourceProvider => ({
    kind,
    list: async () => (await real()).sources[i]?.list() ?? [],
  });
  return { gate, session, sources: [source(0, 'hooks'), source(1, 'commandRules')] };
}
