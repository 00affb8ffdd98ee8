// `npm start` after the build (scripts/start.mjs): the local gateway with demo timing, then a real
// VS Code with the extension loaded and its settings pointed at the gateway. Desktop `code` when
// it is on PATH (and --browser is not given), otherwise code-server in the browser. Ctrl-C stops
// everything this started.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupAll, onCleanup } from './cleanup';
import { QUIET_SETTINGS, startCodeServer } from './codeServer';
import { startHostGateway } from './gateway';
import { ensureHost, projectRoot } from './install';

const startDir = join(projectRoot, '.cache', 'start');
/** Kept between runs so generated videos and chats are still there next time. */
const workspace = join(startDir, 'workspace');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function onPath(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function mergeSettings(file: string, settings: Record<string, unknown>): void {
  let current: Record<string, unknown> = {};
  try {
    current = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    // missing or hand-edited with comments: start from ours
  }
  writeFileSync(file, JSON.stringify({ ...current, ...settings }, null, 2) + '\n');
}

async function main(): Promise<void> {
  mkdirSync(workspace, { recursive: true });
  const gw = await startHostGateway({
    port: Number(arg('--gateway-port') ?? 0),
    videoPort: Number(arg('--video-port') ?? 0),
    videoSteps: 4,
    videoStepMs: 3000,
    chatChunkDelayMs: 30,
  });
  const pointAtGateway = { 'gatewayStudio.baseUrl': gw.url, 'gatewayStudio.videoBaseUrl': gw.videoUrl };
  const lines = [
    '',
    'Gateway Studio is running against the local gateway.',
    `  chat base URL:  ${gw.url}`,
    `  video base URL: ${gw.videoUrl}`,
    `  demo API key:   ${gw.keys.valid}`,
    '  Run "Gateway Studio: Set API Key" (F1) and paste the demo key, then "Gateway Studio: Check Connection".',
    '  Try "#markdown", "#long 500" or "#reasoning" in the chat, a video prompt with "#fail" to see a failure.',
  ];

  if (onPath('code') && !process.argv.includes('--browser')) {
    // A separate profile, so the user's own VS Code settings are not touched.
    const userData = join(startDir, 'desktop-user-data');
    mkdirSync(join(userData, 'User'), { recursive: true });
    mergeSettings(join(userData, 'User', 'settings.json'), { ...QUIET_SETTINGS, ...pointAtGateway });
    const child = spawn('code', ['--new-window', '--wait', '--user-data-dir', userData, `--extensionDevelopmentPath=${projectRoot}`, workspace], {
      stdio: 'inherit',
      detached: true,
    });
    onCleanup('desktop VS Code', () => {
      if (child.exitCode === null && child.pid) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    });
    process.stdout.write([...lines, '  VS Code (desktop) opened; close its window or press Ctrl+C to stop.', ''].join('\n'));
    await new Promise<void>((resolve) => child.on('exit', () => resolve()));
    return;
  }

  process.stdout.write('Preparing code-server (the first run installs it: a few minutes)...\n');
  const install = await ensureHost();
  // A fixed default port: the browser keeps the stored API key per origin, so it survives a restart.
  const logFile = join(startDir, 'code-server.log');
  const cs = await startCodeServer({
    install,
    logFile,
    label: 'start',
    port: Number(arg('--port') ?? 8765),
    workspace,
    settings: pointAtGateway,
  });
  const url = cs.workbenchUrl([['extensionDevelopmentPath', cs.remoteUri(projectRoot)]]);
  process.stdout.write([...lines, '', `Open this URL in a browser (code-server, log: ${logFile}):`, `  ${url}`, '', 'Ctrl+C stops the gateway and code-server.', ''].join('\n'));
  await new Promise<never>(() => undefined);
}

if (!existsSync(join(projectRoot, 'dist', 'extension.js'))) {
  process.stderr.write('dist/extension.js is missing: run `npm start` (it builds first) or `npm run build`.\n');
  process.exit(1);
}
main().then(
  () => cleanupAll().then(() => process.exit(0)),
  (e: unknown) => {
    process.stderr.write(`npm start failed: ${e instanceof Error ? e.message : String(e)}\n`);
    void cleanupAll().then(() => process.exit(1));
  },
);
