// Driving the VS Code workbench like a user: command palette, quick inputs, settings editor,
// notification centre, status bar, webviews. Selectors are the workbench's own DOM classes;
// every wait is on a visible state, never on a fixed sleep.
import type { FrameLocator, Locator, Page } from 'playwright-core';

/** Generous default for UI waits: a loaded 2-core machine renders slowly. */
export const UI_TIMEOUT = 60_000;

/** A workbench page with helpers. */
export class Workbench {
  constructor(readonly page: Page) {}

  /** Waits until the workbench is drawn and the extension's commands are in the palette. */
  async ready(command = 'Gateway Studio: Show Log'): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 180_000 });
    await this.page.locator('.statusbar').waitFor({ state: 'visible', timeout: 180_000 });
    // Activation is onStartupFinished: the command is only runnable once the host is up.
    await this.waitForCommand(command);
    await this.page.keyboard.press('Escape');
  }

  /** The quick input widget (command palette, input boxes, quick picks). */
  get quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  get quickInputBox(): Locator {
    return this.quickInput.locator('.quick-input-box input');
  }

  /**
   * Opens the palette and types `title`; resolves when a row with exactly that label is shown
   * within `rowTimeoutMs` of typing.
   */
  private async typeInPalette(title: string, rowTimeoutMs = 10_000): Promise<Locator> {
    await this.page.keyboard.press('Escape');
    await this.page
      .locator('.monaco-workbench')
      .click({ position: { x: 600, y: 5 }, trial: true })
      .catch(() => undefined);
    await this.page.keyboard.press('F1');
    await this.quickInputBox.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    // A page that takes the focus as it loads (a webview just opened) closes the palette again:
    // then the fill would wait its full 30 s for a box that is gone. The caller tries again.
    await this.quickInputBox.fill(`>${title}`, { timeout: 5000 });
    const row = this.quickInput
      .locator('.monaco-list-row', { has: this.page.locator('.label-name', { hasText: title }) })
      .first();
    await row.waitFor({ state: 'visible', timeout: rowTimeoutMs });
    // hasText matches part of a label, and the palette lists recently run commands first: after
    // "Preferences: Open User Settings (JSON)" ran, it came before "Preferences: Open User
    // Settings". The row labelled exactly `title` wins when there is one.
    const exact = this.quickInput
      .locator('.monaco-list-row', {
        has: this.page.locator('.label-name', {
          hasText: new RegExp(`^\\s*${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`),
        }),
      })
      .first();
    return (await exact.count()) > 0 ? exact : row;
  }

  /**
   * Polls the palette until a command shows up (the extension host may still be starting). The
   * palette lists the commands known when it opened and does not add later ones: a palette opened
   * before the extension registered never shows the row (measured: the first try at start-up
   * always waited its full 10 s, the reopened palette showed the row 50-90 ms after typing). So a
   * try waits briefly and the palette is reopened; a failed try costs its whole wait, so the wait
   * starts short and grows slowly per try (1.25 s, 1.5 s … 5 s) in case a loaded machine is slow
   * to draw rows.
   */
  async waitForCommand(title: string, timeoutMs = 180_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.typeInPalette(title, Math.min(1000 + 250 * attempt, 5000));
        return;
      } catch (e) {
        if (Date.now() > deadline)
          throw new Error(
            `command "${title}" never appeared in the palette: ${e instanceof Error ? e.message : String(e)}`,
          );
        await this.page.keyboard.press('Escape');
        await this.page.waitForTimeout(250);
      }
    }
  }

  /** Runs a command by its palette title, as a user would (F1, type, Enter). */
  async runCommand(title: string): Promise<void> {
    // A loaded machine can be slow to open or filter the palette, and the list can re-render
    // under the pointer while it filters (a click that then never finds the row stable timed out
    // in "Export to Markdown"): try the whole step again rather than fail. A click that timed out
    // ran nothing, so trying again cannot run the command twice.
    for (let attempt = 1; ; attempt++) {
      try {
        const row: Locator = await this.typeInPalette(title);
        // Enter runs the focused row; make sure it is ours by clicking it instead.
        await row.click({ timeout: 15_000 });
        return;
      } catch (e) {
        if (attempt >= 3) throw new Error(`could not run "${title}" from the command palette`, { cause: e });
        await this.page.keyboard.press('Escape');
      }
    }
  }

  /** Waits for an input box (optionally one whose prompt contains `prompt`), types and submits. */
  async submitInput(text: string, opts: { prompt?: string | RegExp; password?: boolean } = {}): Promise<void> {
    await this.quickInputBox.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    if (opts.prompt)
      await this.quickInput.getByText(opts.prompt).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    // The palette's own text box turns into the command's input box: wait for that to happen.
    const box = opts.password ? this.quickInput.locator('.quick-input-box input[type="password"]') : this.quickInputBox;
    try {
      await box.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    } catch {
      const type = await this.quickInputBox.getAttribute('type').catch(() => null);
      throw new Error(`expected a password input box, found type="${String(type)}"`);
    }
    await box.fill(text);
    // validateInput runs in the extension host: until its answer for the new value arrives, the
    // message for the empty value stands and Enter is ignored. Press again until the box closes.
    const deadline = Date.now() + UI_TIMEOUT;
    for (;;) {
      await box.press('Enter').catch(() => undefined);
      try {
        await box.waitFor({ state: 'hidden', timeout: 3000 });
        return;
      } catch (e) {
        if (Date.now() > deadline) {
          const msg = await this.quickInput
            .locator('.quick-input-message')
            .innerText()
            .catch(() => '');
          throw new Error(`the input box did not accept the value; it says: ${msg}`, { cause: e });
        }
      }
    }
  }

  /** Set API Key through the palette's password input, waiting for the confirmation. */
  async setApiKey(key: string): Promise<void> {
    await this.runCommand('Gateway Studio: Set API Key');
    await this.submitInput(key, { password: true });
    await this.notification('API key saved');
    await this.runCommand('Notifications: Clear All Notifications');
  }

  /** Picks the quick-pick row whose label contains `label`. */
  async pick(label: string | RegExp, timeout = UI_TIMEOUT): Promise<void> {
    const row = this.quickInput.locator('.monaco-list-row').filter({ hasText: label }).first();
    await row.waitFor({ state: 'visible', timeout });
    await row.click({ timeout });
  }

  /** Sets a user setting through the Settings editor (search by id, type into its text box). */
  async setTextSetting(id: string, value: string): Promise<void> {
    await this.runCommand('Preferences: Open User Settings');
    const search = this.page.locator('.settings-editor .suggest-input-container');
    await search.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await search.click();
    await this.page.keyboard.press('ControlOrMeta+A');
    await this.page.keyboard.type(id);
    const row = this.page.locator(`.settings-editor .setting-item-contents[data-key="${id}"]`);
    const input = row.locator('input, textarea').first();
    await input.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await input.fill(value);
    await input.press('Tab');
    // The editor writes settings.json after a debounce; the row is marked once it has.
    await this.page
      .locator(`.settings-editor .setting-item-contents.is-configured[data-key="${id}"]`)
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await this.runCommand('View: Close Editor');
  }

  /** Opens the notification centre (toasts are not drawn under the smoke-test driver). */
  async notificationCenter(): Promise<Locator> {
    const center = this.page.locator('.notifications-center');
    if (!(await center.isVisible().catch(() => false))) await this.runCommand('Notifications: Show Notifications');
    await center.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    return center;
  }

  /**
   * Waits for a notification whose text matches, and returns it: as a toast or in the centre.
   * A toast needs no command, so the page is polled for either; the centre, once open, was seen
   * not to show notifications that arrive later, so it is reopened every few seconds in case the
   * toast was missed (a toast hides itself after a while).
   */
  async notification(text: string | RegExp, timeoutMs = UI_TIMEOUT): Promise<Locator> {
    const deadline = Date.now() + timeoutMs;
    const item = this.page.locator('.notification-list-item').filter({ hasText: text }).first();
    let reopenAt = Date.now() + 3000;
    for (;;) {
      if (await item.isVisible().catch(() => false)) return item;
      if (Date.now() > deadline) {
        const seen = await this.page
          .locator('.notification-list-item')
          .allInnerTexts()
          .catch(() => []);
        throw new Error(
          `no notification matching ${String(text)} within ${timeoutMs} ms; shown: ${JSON.stringify(seen)}`,
        );
      }
      if (Date.now() >= reopenAt) {
        const center = this.page.locator('.notifications-center');
        if (await center.isVisible().catch(() => false)) {
          await this.runCommand('Notifications: Hide Notifications').catch(() => undefined);
          await center.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
        }
        await this.notificationCenter().catch(() => undefined);
        reopenAt = Date.now() + 5000;
      }
      await this.page.waitForTimeout(250);
    }
  }

  /** Every notification's text, newest first. */
  async notificationTexts(): Promise<string[]> {
    const center = await this.notificationCenter();
    return center.locator('.notification-list-item .notification-list-item-message').allInnerTexts();
  }

  async clearNotifications(): Promise<void> {
    await this.runCommand('Notifications: Clear All Notifications');
  }

  /** A status-bar item by its `id` as the extension created it. */
  statusItem(itemId: string): Locator {
    return this.page
      .locator(`.statusbar [id="gateway-studio.gateway-studio.${itemId}"], .statusbar [id$=".${itemId}"]`)
      .first();
  }

  /** The DOM of the active webview (panel or view). */
  webview(): FrameLocator {
    return this.page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
  }

  /**
   * Developer: Reload Window, as a user would; resolves when the reloaded workbench is ready
   * (the extension host restarted and our commands are back in the palette).
   */
  async reloadWindow(): Promise<void> {
    const navigated = this.page.waitForEvent('framenavigated', {
      predicate: (f) => f === this.page.mainFrame(),
      timeout: UI_TIMEOUT,
    });
    await this.runCommand('Developer: Reload Window');
    await navigated;
    await this.ready();
  }

  /** Opens a workspace file through Quick Open (typing its name), and waits for its editor tab. */
  async openFile(relPath: string): Promise<void> {
    const name = relPath.split('/').pop() ?? relPath;
    const base = name.replace(/\.[^.]*$/, '');
    // Labels may show the name apart from its extension (tabs do), so match the part before it.
    const row = this.quickInput
      .locator('.monaco-list-row', { has: this.page.locator('.label-name', { hasText: base }) })
      .first();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.page.keyboard.press('Escape');
        await this.page.keyboard.press('F1');
        // A palette that is still closing (an earlier command) is inert and ignores typing.
        await this.quickInputBox.waitFor({ state: 'visible', timeout: 10_000 });
        // Without the palette's '>' the same box searches files.
        await this.quickInputBox.fill(relPath, { timeout: 5000 });
        await row.waitFor({ state: 'visible', timeout: 20_000 });
        break;
      } catch (e) {
        if (attempt >= 3) throw new Error(`Quick Open did not list ${relPath}`, { cause: e });
      }
    }
    await row.click();
    await this.page
      .locator(`.tabs-container .tab.active[data-resource-name=${JSON.stringify(name)}]`)
      .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  }
}

/** Settings that point the chat at the local gateway with its plain chat model. */
export const chatSettings = (gw: { url: string }): Record<string, unknown> => ({
  'gatewayStudio.baseUrl': gw.url,
  'gatewayStudio.chatModel': 'gw-chat',
});

/** Opens the chat panel and returns its page once the composer is there. */
export async function openChat(wb: Workbench): Promise<FrameLocator> {
  await wb.runCommand('Gateway Studio: Open Chat');
  const chat = wb.webview();
  await chat.locator('textarea[aria-label="Message"]').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  return chat;
}

/** Types a message into the chat's composer and sends it with Enter, as a user would. */
export async function sendMessage(chat: FrameLocator, text: string): Promise<void> {
  const box = chat.locator('textarea[aria-label="Message"]');
  await box.fill(text);
  await box.press('Enter');
}
