// `npm run l10n`: after `vscode-l10n-dev export` has rewritten l10n/bundle.l10n.json from the
// `l10n.t` calls in src/, adds the webview tables to it and lists what the zh-cn files lack, as
// JSON ready to translate and paste. `--check` exits 1 when something is missing (CI, a hook).
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { extractBundle, gap, paths, problems, readJson, ROOT, type Gap } from './l10nBundle';

async function main(): Promise<void> {
  const bundle = await extractBundle();
  writeFileSync(paths.bundle, JSON.stringify(bundle, null, 2) + '\n');
  console.log(`${relative(ROOT, paths.bundle)}: ${Object.keys(bundle).length} strings`);
  const pairs: [string, Record<string, string>, Record<string, string>][] = [
    [relative(ROOT, paths.nlsZh), readJson(paths.nls), readJson(paths.nlsZh)],
    [relative(ROOT, paths.bundleZh), bundle, readJson(paths.bundleZh)],
  ];
  const gaps: Gap[] = pairs.map(([file, en, zh]) => gap(file, en, zh));
  let missing = 0;
  for (const [file, en, zh] of pairs) {
    // Missing keys are printed below as JSON to translate; the other faults are listed here.
    const other = problems(en, zh).filter((p) => !p.startsWith('missing: '));
    missing += other.length;
    if (other.length > 0) console.log(`${file}:\n  ${other.join('\n  ')}`);
  }
  for (const g of gaps) {
    const n = Object.keys(g.missing).length;
    missing += n;
    if (n === 0) console.log(`${g.file}: no key missing`);
    else
      console.log(
        `\n${g.file}: ${n} missing (translate the values, keep {0}, add to the file):\n${JSON.stringify(g.missing, null, 2)}`,
      );
    if (g.stale.length > 0)
      console.log(
        `${g.file}: ${g.stale.length} not in the English (removed strings, or translated ahead for a branch not merged yet):\n  ${g.stale.join('\n  ')}`,
      );
  }
  if (missing > 0 && process.argv.includes('--check')) process.exitCode = 1;
}

void main();
