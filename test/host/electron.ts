// `npm run test:electron`: the same integration suite (out/test/index.js) in desktop VS Code via
// @vscode/test-electron, which downloads VS Code (stable, or VSCODE_VERSION) into .vscode-test/.
// Needs internet access to the VS Code download site, and a display (xvfb-run on a headless
// Linux). Not part of CI here: CI uses code-server (test/host/run.ts).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { cleanupAll, removeAtCleanup } from './cleanup';
import { QUIET_SETTINGS } from './codeServer';
import { gatewayEnvironment, startHostGateway } from './gateway';
import { projectRoot } from './install';

async function main(): Promise<number> {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: projectRoot, stdio: 'inherit' });
  if (build.status !== 0) return 1;
  const gw = await startHostGateway({ videoSteps: 4, videoStepMs: 1500 });
  const runDir = mkdtempSync(join(tmpdir(), 'gws-electron-'));
  removeAtCleanup(runDir);
  const userData = join(runDir, 'user-data');
  const workspace = join(runDir, 'workspace');
  mkdirSync(join(userData, 'User'), { recursive: true });
  mkdirSync(workspace, { recursive: true });
  writeFileSync(
    join(userData, 'User', 'settings.json'),
    JSON.stringify(
      { ...QUIET_SETTINGS, 'gatewayStudio.baseUrl': gw.url, 'gatewayStudio.videoBaseUrl': gw.videoUrl },
      null,
      2,
    ),
  );
  try {
    await runTests({
      ...(process.env.VSCODE_VERSION ? { version: process.env.VSCODE_VERSION } : {}),
      extensionDevelopmentPath: projectRoot,
      extensionTestsPath: join(projectRoot, 'out', 'test', 'index.js'),
      extensionTestsEnv: gatewayEnvironment(gw),
      launchArgs: [
        workspace,
        '--user-data-dir',
        userData,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
      ],
    });
    return 0;
  } catch (e) {
    process.stderr.write(
      `integration tests failed in desktop VS Code: ${e instanceof Error ? e.message : String(e)}\n`,
    );
    return 1;
  }
}

void main().then(async (code) => {
  await cleanupAll();
  process.exit(code);
});
