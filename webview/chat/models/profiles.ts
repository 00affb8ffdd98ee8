/**
 * The gateway profiles for the header's switcher (`profiles/*`). The host owns which one is
 * active: a pick only asks for the switch, and what is shown is the host's latest list.
 */
import { signal } from '@preact/signals';
import type { ProfileEntry } from '../../../src/shared/protocol';
import { post } from '../runtime';
import type { HostMessageIn } from './routes';

export function createProfilesModel() {
  const list = signal<ProfileEntry[]>([]);
  const active = signal('');
  /** Counts the host's answers, so the control shows the host's choice even when it is unchanged. */
  const version = signal(0);

  function onHost(msg: HostMessageIn<'profiles'>): void {
    switch (msg.type) {
      case 'profiles/list':
        list.value = msg.profiles;
        active.value = msg.active;
        version.value++;
        return;
    }
  }

  /** Asks the host to switch; the control keeps showing the host's active profile until it answers. */
  function switchTo(id: string): void {
    if (id !== active.value) post({ type: 'profiles/switch', id });
  }

  return { list, active, version, switchTo, onHost };
}
