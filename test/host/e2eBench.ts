// A code-server with its workbench page open and the extension up: what a journey runs in. A
// journey without `share` gets a bench of its own; the journeys of one share group run one after
// another in the same bench, which skips code-server's start, the workbench load and the
// extension's activation (about 15 s of a 30 s journey), and is reset between them to the state
// a fresh bench starts in (see reset()).
import { appendFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Journey } from '../e2e/journey';
import { UI_TIMEOUT, Workbench } from '../e2e/workbench';
import { newPage } from './browser';
import { startCodeServer, type CodeServer } from './codeServer';
import type { HostGateway } from './gateway';
import { projectRoot, type HostInstall } from './install';

/** Records how long each step took: "start 1.0, load 6.5, ready 7.2, steps 5.7, stop 3.3". */
export class Phases {
  private readonly list: [string, number][] = [];
  private mark = Date.now();
  readonly t0 = this.mark;

  phase(name: string): void {
    const now = Date.now();
    this.list.push([name, now - this.mark]);
    this.mark = now;
  }

  toString(): string {
    return this.list.map(([n, ms]) => `${n} ${(ms / 1000).toFixed(1)}`).join(', ');
  }
}

/** The journey's user settings, with a marker in the window title that says they were applied. */
function settingsWithMark(journey: Journey, gw: HostGateway, mark: string): Record<string, unknown> {
  return { ...(journey.settings?.(gw) ?? {}), 'window.title': `${mark} \${rootName}` };
}

function writeFiles(workspace: string, files: Journey['files']): void {
  for (const [rel, contents] of Object.entries(files ?? {})) {
    const p = join(workspace, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, contents);
  }
}

/**
 * The reset's steps that need no argument, on keys bound in every bench's user keybindings: a key
 * runs its command at once, where the palette takes about a second a command (open, type, wait
 * for the row, click). Chords no default binding and no journey uses.
 */
const RESET_KEYS = {
  closeAllEditors: 'Control+Alt+Shift+F7',
  clearNotifications: 'Control+Alt+Shift+F8',
  showExplorer: 'Control+Alt+Shift+F9',
} as const;
const RESET_BINDINGS = [
  { key: 'ctrl+alt+shift+f7', command: 'workbench.action.closeAllEditors' },
  { key: 'ctrl+alt+shift+f8', command: 'notifications.clearAll' },
  { key: 'ctrl+alt+shift+f9', command: 'workbench.view.explorer' },
];

/** A journey's user data with the reset's keybindings added to any it brings. */
function withResetKeys(userData: Record<string, unknown> | undefined): Record<string, unknown> {
  const own = userData?.['User/keybindings.json'];
  return { ...userData, 'User/keybindings.json': [...(Array.isArray(own) ? own : []), ...RESET_BINDINGS] };
}

/** One code-server, one browser context and its workbench page. */
export class Bench {
  cs?: CodeServer;
  page?: Page;
  wb?: Workbench;
  /** How many journeys have run in it (0 before the first). */
  journeys = 0;
  /** Where the page's console goes: the current journey's log. */
  private consoleLog = '';

  /** Starts code-server for `journey` (its settings, user data and files) and loads the workbench. */
  async open(
    install: HostInstall,
    gw: HostGateway,
    browser: Browser,
    journey: Journey,
    logs: { codeServer: string; console: string },
    phases: Phases,
  ): Promise<void> {
    this.cs = await startCodeServer({
      install,
      logFile: logs.codeServer,
      label: 'e2e',
      settings: settingsWithMark(journey, gw, 'gws-e2e-0'),
      userData: withResetKeys(typeof journey.userData === 'function' ? journey.userData(gw) : journey.userData),
    });
    phases.phase('start');
    writeFiles(this.cs.workspace, journey.files);
    this.page = await newPage(browser);
    this.logTo(logs.console);
    // The workbench's console carries the extension host's log too: kept for diagnosing failures.
    this.page.on('console', (m) => appendFileSync(this.consoleLog, `[${m.type()}] ${m.text()}\n`));
    this.wb = new Workbench(this.page);
    await this.page.goto(this.cs.workbenchUrl([['extensionDevelopmentPath', this.cs.remoteUri(projectRoot)]]), {
      timeout: 180_000,
    });
    phases.phase('load');
    await this.wb.ready(journey.readyCommand);
    phases.phase('ready');
  }

  /** Sends the page's console to `file` from now on (emptied first). */
  logTo(file: string): void {
    writeFileSync(file, '');
    this.consoleLog = file;
  }

  /**
   * Brings an open bench back to where a fresh one starts for `journey`: a new, empty chat; no
   * editor, notification or quick input open; the Explorer in the side bar; the workspace holding
   * exactly the journey's files; the user settings holding exactly the journey's settings. What a journey keeps beyond that (its API
   * key in SecretStorage, conversations in the history, video tasks) is why journeys that look at
   * it keep a bench of their own (no `share`); every shared journey sets its own key first.
   */
  async reset(journey: Journey, gw: HostGateway): Promise<void> {
    const { cs, page, wb } = this.need();
    await page.keyboard.press('Escape');
    // New Chat shows the chat where it is: without a chat panel that is the sidebar's chat view,
    // whose page stays in the workbench (kept while hidden) beside the panel the journey opens.
    // So the panel first: New Chat then empties it, and closing it leaves no webview behind.
    if ((await page.locator('.tabs-container .tab', { hasText: 'Gateway Studio Chat' }).count()) === 0) {
      await wb.runCommand('Gateway Studio: Open Chat');
      // The chat's page takes the focus as it loads, which closes a palette opened meanwhile
      // (New Chat's, next): wait for the focus to move into it first (or 5 s).
      await page
        .waitForFunction("document.activeElement?.tagName === 'IFRAME'", undefined, { timeout: 5000 })
        .catch(() => undefined);
    }
    await wb.runCommand('Gateway Studio: New Chat');
    for (const name of readdirSync(cs.workspace)) rmSync(join(cs.workspace, name), { recursive: true, force: true });
    writeFiles(cs.workspace, journey.files);
    await this.writeSettings(settingsWithMark(journey, gw, `gws-e2e-${this.journeys}`));
    await page.keyboard.press('Escape');
    await page.keyboard.press(RESET_KEYS.closeAllEditors);
    // An edited untitled file would ask to be saved: it is the previous journey's, so not. The
    // journey's webview() finds its page as the one webview there is.
    const dontSave = page.locator('.monaco-dialog-box button', { hasText: "Don't Save" });
    const deadline = Date.now() + UI_TIMEOUT;
    while ((await page.locator('iframe.webview').count()) > 0) {
      if (Date.now() > deadline) throw new Error('a webview stayed open after Close All Editors');
      if (await dontSave.isVisible().catch(() => false)) await dontSave.click();
      await page.waitForTimeout(100);
    }
    await page.keyboard.press(RESET_KEYS.clearNotifications);
    await page.keyboard.press(RESET_KEYS.showExplorer);
    await page.keyboard.press('Escape');
  }

  /**
   * Rewrites the user settings file and has the workbench apply it: code-server was seen not to
   * notice a settings file rewritten on disk, even after a minute, while a save from its own
   * editor is applied at once. So the file is opened, read again from disk (File: Revert File),
   * given a trailing space and saved; done when the window title shows `settings`' marker (the
   * editor stays open: reset() closes all editors next).
   */
  private async writeSettings(settings: Record<string, unknown>): Promise<void> {
    const { cs, page, wb } = this.need();
    cs.writeSettings(settings);
    await wb.runCommand('Preferences: Open User Settings (JSON)');
    const tab = page.locator('.tabs-container .tab.active[data-resource-name="settings.json"]');
    await tab.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    // The chat page can take the focus back as it renders a new chat, and with it the active
    // group: the settings' own tab is clicked first, and its own group's editor typed in.
    await tab.click();
    await wb.runCommand('File: Revert File');
    await page
      .locator('.editor-group-container', { has: page.locator('.tab[data-resource-name="settings.json"]') })
      .locator('.monaco-editor .view-lines')
      .first()
      .click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type(' ');
    await page.keyboard.press('ControlOrMeta+S');
    const mark = String(settings['window.title']).split(' ')[0] ?? '';
    await page.waitForFunction(`document.title.includes(${JSON.stringify(mark)})`, undefined, { timeout: UI_TIMEOUT });
  }

  private need(): { cs: CodeServer; page: Page; wb: Workbench } {
    const { cs, page, wb } = this;
    if (!cs || !page || !wb) throw new Error('the bench is not open');
    return { cs, page, wb };
  }

  /** Closes the browser context and stops code-server (whatever of them was started). */
  async close(): Promise<void> {
    await this.page
      ?.context()
      .close()
      .catch(() => undefined);
    await this.cs?.stop();
    this.cs = undefined;
    this.page = undefined;
    this.wb = undefined;
  }
}
