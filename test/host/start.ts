// `npm start` after the build (scripts/start.mjs): the local gateway with demo timing, then a real
// VS Code with the extension loaded and its settings pointed at the gateway. Desktop `code` when
// it is on PATH (and --browser is not given), otherwise code-server in the browser. Ctrl-C stops
// everything this started. `--smoke` (CI) starts the same code-server on a free port, checks
// that it all answers and that the extension connects to the gateway, then stops and exits 0.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findBrowser } from '../../scripts/ensureSetup.mjs';
import { Workbench } from '../e2e/workbench';
import { launchBrowser, newPage, screenshot } from './browser';
import { cleanupAll, onCleanup } from './cleanup';
import { QUIET_SETTINGS, startCodeServer, type CodeServer } from './codeServer';
import { startHostGateway, type HostGateway } from './gateway';
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

const smoke = process.argv.includes('--smoke');

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/**
 * What `--smoke` proves: the workbench and the gateway answer over HTTP, and, in a headless
 * browser when there is one, the extension loads, takes the demo key and reaches the gateway
 * (Check Connection). Throws on the first thing that does not work.
 */
async function smokeCheck(gw: HostGateway, cs: CodeServer, url: string): Promise<void> {
  const page0 = await fetch(url);
  const html = await page0.text();
  if (page0.status !== 200 || !html.includes('workbench'))
    throw new Error(`the workbench at ${cs.origin} answered HTTP ${page0.status} without a workbench page`);
  say(`smoke: the workbench answers (${cs.origin}: HTTP 200)`);
  const models = await fetch(`${gw.url}/v1/models`, { headers: { authorization: `Bearer ${gw.keys.valid}` } });
  const body = (await models.json().catch(() => undefined)) as { data?: unknown[] } | undefined;
  if (models.status !== 200 || !Array.isArray(body?.data))
    throw new Error(`the local gateway answered GET /v1/models with HTTP ${models.status}`);
  say(`smoke: the local gateway answers (GET ${gw.url}/v1/models: HTTP 200, ${body.data.length} models)`);

  const found = findBrowser();
  if (found.path === undefined) {
    say(`smoke: SKIPPED the extension check in a browser: ${found.error} (looked at ${found.looked.join(', ')})`);
    return;
  }
  const browser = await launchBrowser('the smoke run');
  const page = await newPage(browser);
  try {
    const wb = new Workbench(page);
    await page.goto(url, { timeout: 180_000 });
    await wb.ready();
    await wb.setApiKey(gw.keys.valid);
    await wb.runCommand('Gateway Studio: Check Connection');
    const item = await wb.notification('Connected to the gateway');
    const text = (await item.innerText()).replace(/\s+/g, ' ').trim();
    if (!text.includes(`${gw.url}/v1/models`))
      throw new Error(`Check Connection did not name the local gateway: ${text}`);
    say(
      `smoke: the extension connected to the local gateway (${found.path}; Check Connection: "${text.slice(0, 160)}")`,
    );
  } catch (e) {
    const shot = await screenshot(page, 'smoke-failure');
    throw new Error(`${e instanceof Error ? e.message : String(e)}${shot ? ` (screenshot: ${shot})` : ''}`, {
      cause: e,
    });
  }
}

async function main(): Promise<void> {
  const t0 = Date.now();
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

  if (!smoke && onPath('code') && !process.argv.includes('--browser')) {
    // A separate profile, so the user's own VS Code settings are not touched.
    const userData = join(startDir, 'desktop-user-data');
    mkdirSync(join(userData, 'User'), { recursive: true });
    mergeSettings(join(userData, 'User', 'settings.json'), { ...QUIET_SETTINGS, ...pointAtGateway });
    const child = spawn(
      'code',
      ['--new-window', '--wait', '--user-data-dir', userData, `--extensionDevelopmentPath=${projectRoot}`, workspace],
      {
        stdio: 'inherit',
        detached: true,
      },
    );
    onCleanup('desktop VS Code', () => {
      if (child.exitCode === null && child.pid) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    });
    process.stdout.write(
      [...lines, '  VS Code (desktop) opened; close its window or press Ctrl+C to stop.', ''].join('\n'),
    );
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
    // The smoke run takes a free port and a fresh workspace: a user's `npm start` may be running.
    ...(smoke ? {} : { port: Number(arg('--port') ?? 8765), workspace }),
    settings: pointAtGateway,
  });
  const url = cs.workbenchUrl([['extensionDevelopmentPath', cs.remoteUri(projectRoot)]]);
  if (smoke) {
    await smokeCheck(gw, cs, url);
    say(`smoke: passed in ${((Date.now() - t0) / 1000).toFixed(0)} s; stopping`);
    return;
  }
  process.stdout.write(
    [
      ...lines,
      '',
      `Open this URL in a browser (code-server, log: ${logFile}):`,
      `  ${url}`,
      '',
      'Ctrl+C stops the gateway and code-server.',
      '',
    ].join('\n'),
  );
  await new Promise<never>(() => undefined);
}

if (!existsSync(join(projectRoot, 'dist', 'extension.mjs'))) {
  process.stderr.write('dist/extension.mjs is missing: run `npm start` (it builds first) or `npm run build`.\n');
  process.exit(1);
}
main().then(
  () => cleanupAll().then(() => process.exit(0)),
  (e: unknown) => {
    process.stderr.write(`npm start failed: ${e instanceof Error ? e.message : String(e)}\n`);
    void cleanupAll().then(() => process.exit(1));
  },
);
