// What an e2e file exports: journeys, each run in a fresh code-server and a fresh browser context,
// so no journey depends on another's key, settings or files.
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
  run(ctx: JourneyContext): Promise<void>;
}
