import * as vscode from 'vscode';
import type { Profile } from '../../platform/profiles';
import type { Services } from '../../platform/services';
import type { Conversation, HostMessage, ProfileEntry } from '../../shared/protocol';
import type { Routes } from '../conversation/core/routes';

/**
 * The chat's side of gateway profiles (issue 22): the header's switcher (`profiles/*`) and what a
 * switch does to the shown conversation. A switch from the page runs the command
 * `gatewayStudio.switchProfile`, so the chat header, the status bar, the chat view's title and
 * the command palette switch in one way; whichever it came from, the pages get the new list.
 */
export class ChatProfiles implements vscode.Disposable {
  private readonly sub: vscode.Disposable;
  /** The active profile the chat last saw: the list also changes without a switch. */
  private lastActive: string;

  constructor(
    private readonly s: Services,
    private readonly deps: {
      broadcast: (msg: HostMessage) => void;
      shown: () => Conversation;
      /** The shown conversation moved to another profile: its defaults and model list follow. */
      moved: () => void;
    },
  ) {
    this.lastActive = s.profiles.activeId();
    this.sub = s.profiles.onDidChange(() => {
      const active = s.profiles.activeId();
      if (active !== this.lastActive) {
        this.lastActive = active;
        this.follow();
      }
      deps.broadcast(this.message());
    });
  }

  readonly routes: Routes<'profiles/switch'> = {
    'profiles/switch': async (m) => {
      try {
        await vscode.commands.executeCommand('gatewayStudio.switchProfile', m.id);
      } finally {
        // The page shows the host's answer, also when nothing changed (an unknown id, an error).
        this.deps.broadcast(this.message());
      }
    },
  };

  /** The profile the shown conversation talks to (set at its first request; else the active one). */
  profileOf(c: Conversation): Profile {
    return (c.profile !== undefined ? this.s.profiles.get(c.profile) : undefined) ?? this.s.profiles.active();
  }

  message(): Extract<HostMessage, { type: 'profiles/list' }> {
    const profiles: ProfileEntry[] = this.s.profiles.list().profiles.map((p) => ({ id: p.id, name: p.name }));
    return { type: 'profiles/list', profiles, active: this.s.profiles.activeId() };
  }

  /**
   * A switch moves the shown conversation to the active profile, and the new profile's default
   * chat model, when it has one, replaces the conversation's own choice: the old one is a model
   * of the other gateway. A conversation that has not sent yet already follows the active one.
   */
  private follow(): void {
    const shown = this.deps.shown();
    const active = this.s.profiles.active();
    // Showing a conversation of history made its own profile active: its choice of model stays.
    if (shown.profile === active.id) return this.deps.moved();
    if (shown.profile !== undefined) {
      shown.profile = active.id;
      this.s.log.info(`conversation ${shown.id} now uses the gateway profile ${active.id}`);
    }
    if (active.chatModel !== '') shown.model = '';
    this.deps.moved();
  }

  dispose(): void {
    this.sub.dispose();
  }
}
