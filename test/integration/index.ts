// The extension-host test entry (`out/test/index.js`), shared by code-server (test/host/run.ts)
// and @vscode/test-electron (test/host/electron.ts): both call `run()` inside a real extension
// host. esbuild bundles the test files into this module; mocha stays external and resolves from
// the extension folder's node_modules.
import Mocha from 'mocha';

/** The line the runner parses for counts; one per run. */
export const RESULT_PREFIX = 'GWS-INTEGRATION-RESULT ';

/**
 * The test modules, imported only after mocha has put `describe`/`it` on the global object
 * (esbuild bundles each dynamic import as a module evaluated on first import).
 */
async function loadSuites(): Promise<void> {
  await import('./activation.test');
  // Before the connection suite: its check must find the connection step not yet completed.
  await import('./walkthrough.test');
  await import('./settings.test');
  await import('./apiKey.test');
  await import('./connection.test');
  await import('./gatewayOrigin.test');
  await import('./remoteSettings.test');
  await import('./video.test');
  await import('./videoTools.test');
  await import('./imageTools.test');
  await import('./storyboard.test');
  await import('./storyboardGuards.test');
  await import('./chat.test');
  await import('./mentions.test');
  await import('./tools.test');
  await import('./checkpoints.test');
  await import('./lm.test');
  await import('./proxy.test');
  await import('./systemPrompt.test');
  await import('./commitMessage.test');
  await import('./completion.test');
  await import('./account.test');
  await import('./balances.test');
  // Before videoCost: its failed, charged clip would be named in every later check-up's bill.
  await import('./checkup.test');
  await import('./failover.test');
  await import('./videoCost.test');
  await import('./answerCost.test');
  await import('./caps.test');
  await import('./responses.test');
  await import('./profiles.test');
  await import('./profileDefaults.test');
  await import('./instructions.test');
  await import('./agents.test');
  await import('./hooks.test');
  await import('./mcp.test');
}

/** Runs every integration suite; resolves when all pass, rejects with the failure count. */
export async function run(): Promise<void> {
  const grep = process.env.GWS_TEST_GREP;
  const retries = Number(process.env.GWS_TEST_RETRIES ?? '1');
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    reporter: 'spec',
    // Generous: a loaded 2-core CI machine runs the workbench, the host and the gateway at once.
    timeout: 60_000,
    // A real workbench on a shared 2-core machine sometimes stalls ("extension host
    // unresponsive"): a failed test runs once more, and one that then passes is reported as
    // flaky by name at the end of the output rather than hidden. A real defect fails twice.
    retries: Number.isInteger(retries) && retries >= 0 ? retries : 1,
    ...(grep ? { grep } : {}),
  });
  // The log goes through the workbench to a file and CI's output: no terminal colours.
  Mocha.reporters.Base.useColors = false;
  mocha.suite.emit('pre-require', globalThis, 'integration', mocha);
  await loadSuites();
  console.log('GWS-INTEGRATION-START');
  return new Promise((resolve, reject) => {
    // The failing titles travel with the counts so that the runner can repeat them at the very end
    // of the output, where a CI log's tail shows them.
    const failures: string[] = [];
    const flaky: string[] = [];
    const runner = mocha.run((failureCount) => {
      const stats = runner.stats;
      const counts = {
        passed: stats?.passes ?? 0,
        failed: stats?.failures ?? failureCount,
        pending: stats?.pending ?? 0,
        failures,
        flaky,
      };
      console.log(`${RESULT_PREFIX}${JSON.stringify(counts)}`);
      if (failureCount > 0) reject(new Error(`${failureCount} integration test(s) failed`));
      else resolve();
    });
    const firstLine = (err: unknown): string =>
      (err instanceof Error ? err.message : String(err)).split('\n')[0]?.slice(0, 200) ?? '';
    runner.on('fail', (test, err: unknown) => {
      failures.push(`${test.fullTitle()}: ${firstLine(err)}`);
    });
    runner.on('retry', (test: Mocha.Test, err: unknown) => {
      console.log(`  (retrying after a failure: ${test.fullTitle()}: ${firstLine(err)})`);
      flaky.push(`${test.fullTitle()}: ${firstLine(err)}`);
    });
    runner.on('fail', (test) => {
      // Failed again after its retry: a failure, not a flake.
      const i = flaky.findIndex((f) => f.startsWith(`${test.fullTitle()}: `));
      if (i >= 0) flaky.splice(i, 1);
    });
  });
}
