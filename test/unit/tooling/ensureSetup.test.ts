// What `npm start` and `npm test` do on a fresh clone before anything else (scripts/ensureSetup.mjs):
// whether node_modules matches package-lock.json, how a missing Debian package is obtained, and
// which browser the browser-driven stages use, pointed at fake installs in a temp folder.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  dependencyProblem,
  ensureNode,
  findBrowser,
  missingHostBuildPackages,
  missingHostTestPackages,
  noBrowserMessage,
  packagePlan,
} from '../../../scripts/ensureSetup.mjs';

const dir = mkdtempSync(join(tmpdir(), 'gws-setup-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => {
  const d = join(dir, String(++n));
  mkdirSync(d, { recursive: true });
  return d;
};

function file(path: string, text = '', mode = 0o644): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}
const fakeBrowser = (path: string): string => file(path, '#!/bin/sh\n', 0o755);

void describe('browser discovery', () => {
  void test('GWS_BROWSER names the browser, before any usual path', () => {
    const root = fresh();
    fakeBrowser(join(root, 'usr/bin/chromium'));
    const mine = fakeBrowser(join(root, 'my', 'chrome'));
    const found = findBrowser({ env: { GWS_BROWSER: mine, PATH: '' }, platform: 'linux', fsRoot: root });
    assert.deepEqual(found, { path: mine, from: 'GWS_BROWSER' });
  });

  void test('a GWS_BROWSER that is missing or not executable is an error, not a reason to take another browser', () => {
    const root = fresh();
    fakeBrowser(join(root, 'usr/bin/chromium'));
    const missing = findBrowser({
      env: { GWS_BROWSER: join(root, 'nope'), PATH: '' },
      platform: 'linux',
      fsRoot: root,
    });
    assert.equal(missing.path, undefined);
    assert.match(missing.error ?? '', /GWS_BROWSER=.*nope is not an executable file/);
    const plain = file(join(root, 'not-executable'));
    const notExec = findBrowser({ env: { GWS_BROWSER: plain, PATH: '' }, platform: 'linux', fsRoot: root });
    assert.equal(notExec.path, undefined);
  });

  void test("on Linux Debian's chromium comes first, then Chrome and Edge in their usual places", () => {
    const root = fresh();
    const edge = fakeBrowser(join(root, 'opt/microsoft/msedge/msedge'));
    assert.deepEqual(findBrowser({ env: { PATH: '' }, platform: 'linux', fsRoot: root }), {
      path: edge,
      from: 'a usual install path',
    });
    const chrome = fakeBrowser(join(root, 'opt/google/chrome/chrome'));
    assert.equal(findBrowser({ env: { PATH: '' }, platform: 'linux', fsRoot: root }).path, chrome);
    const debian = fakeBrowser(join(root, 'usr/bin/chromium'));
    assert.equal(findBrowser({ env: { PATH: '' }, platform: 'linux', fsRoot: root }).path, debian);
  });

  void test('on macOS the app bundles in /Applications and ~/Applications are found', () => {
    const root = fresh();
    const home = '/Users/me';
    const userEdge = fakeBrowser(join(root, home, 'Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge'));
    assert.equal(findBrowser({ env: { PATH: '' }, platform: 'darwin', home, fsRoot: root }).path, userEdge);
    const chrome = fakeBrowser(join(root, 'Applications/Google Chrome.app/Contents/MacOS/Google Chrome'));
    assert.equal(findBrowser({ env: { PATH: '' }, platform: 'darwin', home, fsRoot: root }).path, chrome);
  });

  void test('a browser command on PATH is found when no usual path has one', () => {
    const root = fresh();
    const bin = join(root, 'bin');
    const chrome = fakeBrowser(join(bin, 'google-chrome-stable'));
    assert.deepEqual(findBrowser({ env: { PATH: `${join(root, 'empty')}:${bin}` }, platform: 'linux', fsRoot: root }), {
      path: chrome,
      from: 'PATH',
    });
  });

  void test('none found: the message names the skipped stages, why, where it looked and the fix', () => {
    const root = fresh();
    const found = findBrowser({ env: { PATH: join(root, 'bin') }, platform: 'linux', fsRoot: root });
    assert.equal(found.path, undefined);
    assert.ok(found.looked?.includes(join(root, 'usr/bin/chromium')), JSON.stringify(found.looked));
    const msg = noBrowserMessage(['webview', 'host'], { error: found.error ?? '', looked: found.looked ?? [] });
    assert.match(
      msg,
      /^SKIPPED webview, host: these stages drive a browser, and no Chrome, Chromium or Edge was found\./,
    );
    assert.ok(msg.includes(join(root, 'usr/bin/chromium')));
    assert.match(msg, /sudo apt-get update && sudo apt-get install -y chromium/);
    assert.match(msg, /GWS_BROWSER=\/path\/to\/chrome/);
  });

  void test('npm test with no usable browser skips the browser stages, says so and does not pass', () => {
    const r = spawnSync(process.execPath, [resolve(__dirname, '..', '..', '..', 'scripts', 'test.mjs'), 'webview'], {
      encoding: 'utf8',
      env: { ...process.env, GWS_BROWSER: join(dir, 'no-such-browser') },
      timeout: 60_000,
    });
    const out = r.stdout + r.stderr;
    assert.equal(r.status, 1, out);
    assert.match(
      out,
      /SKIPPED webview: this stage drives a browser, and GWS_BROWSER=.*no-such-browser is not an executable file/,
    );
    assert.match(out, /SKIPPED stages \(not run, so this is not a pass\): webview/);
    assert.doesNotMatch(out, /all stages passed/);
    assert.doesNotMatch(out, /npm run --silent build/, 'nothing is built for stages that do not run');
  });
});

void describe('locked dependencies', () => {
  const lock = {
    lockfileVersion: 3,
    packages: {
      '': { name: 'p' },
      'node_modules/a': { version: '1.0.0', integrity: 'sha512-a' },
      'node_modules/a/node_modules/b': { version: '2.0.0', integrity: 'sha512-b' },
      'node_modules/other-platform': { version: '1.0.0', optional: true },
    },
  };
  function project(installed?: Record<string, unknown>, folders = ['a', 'a/node_modules/b']): string {
    const root = fresh();
    file(join(root, 'package-lock.json'), JSON.stringify(lock));
    if (installed)
      file(
        join(root, 'node_modules', '.package-lock.json'),
        JSON.stringify({ lockfileVersion: 3, packages: installed }),
      );
    for (const f of folders) file(join(root, 'node_modules', f, 'package.json'), '{}');
    return root;
  }
  const asLocked = {
    'node_modules/a': lock.packages['node_modules/a'],
    'node_modules/a/node_modules/b': lock.packages['node_modules/a/node_modules/b'],
  };

  void test('a fresh clone has no node_modules', () => {
    const root = fresh();
    file(join(root, 'package-lock.json'), JSON.stringify(lock));
    assert.equal(dependencyProblem(root), 'node_modules is missing');
  });

  void test('node_modules that npm did not install from the lock is not trusted', () => {
    assert.equal(dependencyProblem(project()), 'node_modules was not installed by npm from package-lock.json');
  });

  void test('matching contents pass, whatever the files’ times; optional packages may be absent', () => {
    assert.equal(dependencyProblem(project(asLocked)), undefined);
  });

  void test('a package at another version or with another integrity than locked needs an install', () => {
    const older = { ...asLocked, 'node_modules/a/node_modules/b': { version: '1.9.0', integrity: 'sha512-old' } };
    assert.equal(
      dependencyProblem(project(older)),
      'node_modules/a/node_modules/b is 1.9.0, package-lock.json locks 2.0.0',
    );
    const repacked = { ...asLocked, 'node_modules/a': { version: '1.0.0', integrity: 'sha512-other' } };
    assert.match(dependencyProblem(project(repacked)) ?? '', /^node_modules\/a is 1\.0\.0/);
  });

  void test('a locked package that is not installed, or whose folder was deleted, needs an install', () => {
    const { 'node_modules/a/node_modules/b': _b, ...withoutB } = asLocked;
    assert.equal(dependencyProblem(project(withoutB)), 'node_modules/a/node_modules/b is not installed');
    assert.equal(dependencyProblem(project(asLocked, ['a'])), 'node_modules/a/node_modules/b was deleted');
  });

  void test("this checkout's own node_modules matches its lock (npm ci ran)", () => {
    assert.equal(dependencyProblem(resolve(__dirname, '..', '..', '..')), undefined);
  });
});

void describe('system packages', () => {
  void test('root on Debian or Ubuntu: apt-get update, then install the missing packages', () => {
    const plan = packagePlan(['libkrb5-dev', 'g++'], { isRoot: true, debianLike: true, hasAptGet: true });
    assert.deepEqual(plan.run, [
      ['apt-get', '-o', 'DPkg::Lock::Timeout=300', 'update', '-qq'],
      [
        'apt-get',
        '-o',
        'DPkg::Lock::Timeout=300',
        'install',
        '-y',
        '-qq',
        '--no-install-recommends',
        'libkrb5-dev',
        'g++',
      ],
    ]);
  });

  void test('not root: stop with the exact command to run', () => {
    const plan = packagePlan(['libkrb5-dev'], { isRoot: false, debianLike: true, hasAptGet: true });
    assert.equal(plan.run, undefined);
    assert.match(plan.stop ?? '', /\n {2}sudo apt-get update && sudo apt-get install -y libkrb5-dev$/);
  });

  void test('not Debian: stop, naming the packages', () => {
    const plan = packagePlan(['libkrb5-dev'], { isRoot: true, debianLike: false, hasAptGet: false });
    assert.match(plan.stop ?? '', /missing system packages: libkrb5-dev/);
  });

  void test('the code-server install needs krb5 headers, make, g++ and python3', () => {
    assert.deepEqual(
      missingHostBuildPackages(
        () => false,
        () => false,
      ),
      ['libkrb5-dev', 'make', 'g++', 'python3'],
    );
    assert.deepEqual(
      missingHostBuildPackages(
        (p) => p === '/usr/include/krb5/krb5.h',
        (c) => c !== 'g++',
      ),
      ['g++'],
    );
  });

  void test('the host stage needs tinyproxy for the proxy suite', () => {
    assert.deepEqual(
      missingHostTestPackages(() => false),
      ['tinyproxy'],
    );
    assert.deepEqual(
      missingHostTestPackages((c) => c === 'tinyproxy'),
      [],
    );
  });

  void test('Node older than 20 is refused with the version needed', () => {
    assert.throws(
      () => ensureNode('npm test', '18.19.0'),
      /Node 18\.19\.0 is too old; this project needs Node 20 or newer/,
    );
    assert.doesNotThrow(() => ensureNode('npm test', '20.0.0'));
  });
});
