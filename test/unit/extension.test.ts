// Activation (src/extension.ts) as a whole needs VS Code; what is checked here is read from the
// source: the words of src/api and of every core/ follow the display language only when
// @vscode/l10n got VS Code's bundle before the first feature registered.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const ROOT = join(__dirname, '..', '..');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
const files = sources(join(ROOT, 'src')).map((f) => ({
  path: relative(ROOT, f).split('\\').join('/'),
  text: readFileSync(f, 'utf8'),
}));

void test("the cores' l10n bundle is configured in one place, by activation, before any feature registers", () => {
  const configuring = files.filter((f) => /\bl10n\.config\(/.test(f.text)).map((f) => f.path);
  assert.deepEqual(configuring, ['src/platform/l10n.ts']);
  const callers = files.filter((f) => /(?<!function )\bconfigureCoreL10n\(\);/.test(f.text)).map((f) => f.path);
  // A module built as a bundle of its own (esbuild.js) has its own copy of @vscode/l10n, which
  // its entry configures when it is loaded; no other feature configures it for itself.
  const ownBundles = ['src/account/vscode/register.ts'];
  const esbuild = readFileSync(join(ROOT, 'esbuild.js'), 'utf8');
  for (const entry of ownBundles) assert.ok(esbuild.includes(`'${entry}'`), `${entry} is an entry of esbuild.js`);
  assert.deepEqual(callers, [...ownBundles, 'src/extension.ts'], 'no feature configures it for itself');
  const activation = files.find((f) => f.path === 'src/extension.ts')?.text ?? '';
  const configured = activation.indexOf('configureCoreL10n();');
  const firstRegister = activation.search(/\n\s+(const \w+ = )?register\w+\(/);
  assert.ok(configured > 0 && configured < firstRegister, 'configured before the first feature registers');
});
