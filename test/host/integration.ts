// Runs the integration suite (out/test/index.js) inside code-server's real extension host: the
// workbench is opened with a development payload naming the extension and its test entry, and the
// results come back through the smoke-test driver's page globals.
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import type { Browser } from 'playwright-core';
import { newPage, resultsDir, screenshot } from './browser';
import { startCodeServer } from './codeServer';
import { gatewayEnvironment, type HostGateway } from './gateway';
import { projectRoot, type HostInstall } from './install';

/** Counts of one stage. */
export interface StageResult {
  passed: number;
  failed: number;
  /** One line per failed test (title and the first line of its error), repeated in the summary. */
  failures?: string[];
  /** Tests that failed once and passed when run again (title and the first failure's line). */
  flaky?: string[];
  /** Why the stage could not report counts (crash, timeout), if it could not. */
  error?: string;
}

const RESULT_PREFIX = 'GWS-INTEGRATION-RESULT ';

const START_MARK = 'GWS-INTEGRATION-START';

/** Workbench chatter that reaches the same log channel as mocha's reporter. */
function noise(line: string): boolean {
  return /^(Ignoring fetching additional builtin|Updating additional builtin|\[(AccountPolicyGate|AgentHost|Service Worker|reconnection)|Resolv|Creating a socket)/.test(
    line,
  );
}

/**
 * Opens the workbench with `extensionTestsPath` and waits for `codeAutomationExit`. Never
 * throws: a crash or a time-out is reported as one failure with its reason.
 */
export async function runIntegration(
  install: HostInstall,
  gw: HostGateway,
  browser: Browser,
  timeoutMs = 15 * 60_000,
): Promise<StageResult> {
  mkdirSync(resultsDir, { recursive: true });
  const logFile = join(resultsDir, 'integration-host.log');
  writeFileSync(logFile, '');
  const entry = join(projectRoot, 'out', 'test', 'index.js');
  if (!existsSync(entry)) return { passed: 0, failed: 1, error: `${entry} is missing: run \`npm run build\` first` };

  let cs: Awaited<ReturnType<typeof startCodeServer>>;
  let page: Awaited<ReturnType<typeof newPage>>;
  try {
    cs = await startCodeServer({
      install,
      logFile: join(resultsDir, 'integration-code-server.log'),
      label: 'integration',
      settings: { 'gatewayStudio.baseUrl': gw.url, 'gatewayStudio.videoBaseUrl': gw.videoUrl },
    });
  } catch (e) {
    return { passed: 0, failed: 1, error: e instanceof Error ? e.message : String(e) };
  }
  try {
    page = await newPage(browser);
  } catch (e) {
    await cs.stop();
    return { passed: 0, failed: 1, error: e instanceof Error ? e.message : String(e) };
  }
  let counts: { passed: number; failed: number; failures?: string[]; flaky?: string[] } | undefined;
  let exitCode: number | undefined;
  let echoing = false;
  let onExit: () => void = () => undefined;
  const exited = new Promise<void>((r) => (onExit = r));
  try {
    // Both globals must exist before the workbench loads: the driver looks for them at start.
    await page.exposeFunction('codeAutomationLog', (level: string, args: unknown[]) => {
      const line = format(...(Array.isArray(args) ? args : [args]));
      appendFileSync(logFile, `[${level}] ${line}\n`);
      for (const l of line.split('\n')) {
        if (l.startsWith(START_MARK)) {
          echoing = true;
        } else if (l.startsWith(RESULT_PREFIX)) {
          echoing = false;
          try {
            counts = JSON.parse(l.slice(RESULT_PREFIX.length)) as {
              passed: number;
              failed: number;
              failures?: string[];
              flaky?: string[];
            };
          } catch {
            // a truncated line: the exit code still decides
          }
        } else if (echoing && !noise(l)) process.stdout.write(`  ${l}\n`);
      }
    });
    await page.exposeFunction('codeAutomationExit', (code: number) => {
      exitCode = code;
      onExit();
    });
    const payload: [string, string][] = [
      ['extensionDevelopmentPath', cs.remoteUri(projectRoot)],
      ['extensionTestsPath', cs.remoteUri(entry)],
      ['extensionEnvironment', JSON.stringify(gatewayEnvironment(gw))],
    ];
    await page.goto(cs.workbenchUrl(payload), { timeout: 180_000 });
    const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), timeoutMs).unref());
    if ((await Promise.race([exited, timer])) === 'timeout') {
      await screenshot(page, 'integration-timeout');
      return {
        passed: counts?.passed ?? 0,
        failed: (counts?.failed ?? 0) + 1,
        error: `no result within ${timeoutMs / 1000}s (log: ${logFile})`,
      };
    }
    if (!counts) {
      await screenshot(page, 'integration-crash');
      return {
        passed: 0,
        failed: 1,
        error: `the test entry exited with ${String(exitCode)} without reporting counts (log: ${logFile})`,
      };
    }
    if (exitCode !== 0 && counts.failed === 0)
      return { ...counts, failed: 1, error: `run() rejected (exit ${String(exitCode)})` };
    return { passed: counts.passed, failed: counts.failed, failures: counts.failures ?? [], flaky: counts.flaky ?? [] };
  } catch (e) {
    await screenshot(page, 'integration-error');
    return {
      passed: counts?.passed ?? 0,
      failed: (counts?.failed ?? 0) + 1,
      error: e instanceof Error ? e.message : String(e),
    };
  } finally {
    await page
      .context()
      .close()
      .catch(() => undefined);
    await cs.stop();
  }
}
