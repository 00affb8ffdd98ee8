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
  // A host bundle loaded later from its own file (esbuild.js) holds its own copy of @vscode/l10n,
  // so its entry configures that copy once, the same way; no other feature file does.
  const lazyEntries = ['src/completion/inline/vscode/inline.ts'];
  assert.deepEqual(callers, ['src/extension.ts', ...lazyEntries].sort(), 'no feature configures it for itself');
  const activation = files.find((f) => f.path === 'src/extension.ts')?.text ?? '';
  const configured = activation.indexOf('configureCoreL10n();');
  const firstRegister = activation.search(/\n\s+(const \w+ = )?register\w+\(/);
  assert.ok(configured > 0 && configured < firstRegister, 'configured before the first feature registers');
});
