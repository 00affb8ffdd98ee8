// What an e2e file exports: journeys, each run in a fresh code-server and a fresh browser context,
// so no journey depends on another's key, settings or files; or, for journeys that name a share
// group, in one workbench with the group's other journeys, reset between them to the same start.
import type { Page } from 'playwright-core';
import type { CodeServer } from '../host/codeServer';
import type { HostGateway } from '../host/gateway';
import type { Workbench } from './workbench';

/** Everything a journey gets. */
export interface JourneyContext {
  page: Page;
  wb: Workbench;
  gw: HostGateway;
  cs: CodeServer;
  /** Saves a named screenshot under test-results/ (for final states worth looking at). */
  shot(name: string): Promise<void>;
}

/** One user journey. */
export interface Journey {
  name: string;
  /** User settings written before the workbench opens (merged over the quiet defaults). */
  settings?: (gw: HostGateway) => Record<string, unknown>;
  /** Files to create in the workspace before it opens (relative path -> contents). */
  files?: Record<string, string | Buffer>;
  /**
   * JSON files for the user data folder (e.g. `User/argv.json` with a display language, or
   * `Machine/settings.json`: the remote machine's settings, which a dev container writes).
   */
  userData?: Record<string, unknown> | ((gw: HostGateway) => Record<string, unknown>);
  /** The palette title that says the extension is up (default `Gateway Studio: Show Log`). */
  readyCommand?: string;
  /**
   * Runs with no other journey beside it (test/host/e2e.ts runs two at a time otherwise): for a
   * journey whose timing is the point, such as typing against a debounce.
   */
  alone?: boolean;
  /**
   * A share group: the journeys naming it run one after another in one code-server and page
   * (test/host/e2eBench.ts says what is reset between them), which saves each about 15 s of
   * start-up. Left out for a journey that needs a first run (no key yet, the Welcome page), its
   * own user data or language, or looks at what earlier journeys leave behind (the conversation
   * history, video tasks, the balance). A journey in a group sets its own API key first.
   */
  share?: string;
  run(ctx: JourneyContext): Promise<void>;
}
