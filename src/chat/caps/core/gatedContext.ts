/**
 * Where the spend gate meets the tool loop: every request of a turn is fitted to the window by the
 * turn's context (`TurnContext.prepare`, also for the retry after an overflow), so the gate asks
 * there, with the fitted request's own estimate, before anything is sent. Stop on the card ends
 * the turn with {@link CapStopped}, whose words the context's `describe` gives.
 */
import * as l10n from '@vscode/l10n';
import type { ErrorView } from '../../../shared/protocol';
import type { TurnContext } from '../../context/core/contextGuard';
import type { StepRequest } from './capGate';

/** What the loop asks of a turn's gate. */
export interface TurnGate {
  beforeSend(step: StepRequest): Promise<boolean>;
}

/** The user chose Stop on the cap's card: nothing more of the turn is sent. */
export class CapStopped extends Error {
  readonly view: ErrorView;
  constructor() {
    super('stopped at a spend cap');
    this.name = 'CapStopped';
    this.view = {
      title: l10n.t('Stopped at your spend cap'),
      detail: l10n.t(
        'Nothing more was sent. Raise or clear the cap in the conversation settings (gatewayStudio.spend.capPerTurn, capPerConversation), then send "continue" to go on.',
      ),
      actions: ['openSettings'],
    };
  }
}

/**
 * `inner` with the gate asked before each request it prepares. The answer's most is its
 * `max_tokens`, else the model's output limit, and never more than the window leaves.
 */
export function gatedContext<T extends TurnContext>(
  inner: T,
  gate: TurnGate | undefined,
  maxOutput: (model: string) => number | undefined,
): T {
  if (!gate) return inner;
  return {
    ...inner,
    prepare: async (build, signal) => {
      const fitted = await inner.prepare(build, signal);
      const { req, prompt, window } = fitted;
      const room = Math.max(0, window - prompt);
      const step = {
        model: req.model,
        promptTokens: prompt,
        maxAnswerTokens: Math.min(room, req.max_tokens ?? maxOutput(req.model) ?? room),
      };
      if (!(await gate.beforeSend(step))) throw new CapStopped();
      return fitted;
    },
    describe: (err) => (err instanceof CapStopped ? err.view : inner.describe(err)),
  };
}
