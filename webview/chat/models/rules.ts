/** The rules files in effect (`prompt/rules`): chips above the composer, blocked when untrusted. */
import { signal } from '@preact/signals';
import type { RuleChip } from '../../../src/shared/protocol';
import type { HostMessageIn } from './routes';

export function createRulesModel() {
  /** The rules files found; `blocked` in an untrusted workspace. */
  const rules = signal<{ chips: RuleChip[]; blocked: boolean; warnings: string[] }>({
    chips: [],
    blocked: false,
    warnings: [],
  });

  function onHost(msg: HostMessageIn<'prompt'>): void {
    switch (msg.type) {
      case 'prompt/rules':
        rules.value = { chips: msg.rules, blocked: msg.blocked, warnings: msg.warnings };
        return;
    }
  }

  return { rules, onHost };
}
