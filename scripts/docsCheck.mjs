// The Markdown that ships or that the README sends people to, checked over the tree (node built-ins
// only; test/unit/tooling/docsCheck.test.ts runs it):
// - every relative link and picture in README.md, README.zh-CN.md, CHANGELOG.md and docs/*.md
//   leads to a file that exists, and a `#fragment` to a heading of that file (GitHub's slugs, which
//   the Marketplace and VS Code's extension page use too); a link into the repository written as an
//   absolute URL breaks inside the .vsix, so links stay relative;
// - the READMEs are the Marketplace page: at most README_MAX_LINES lines, no test file names and
//   no commit hashes (those live in docs/).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const README_MAX_LINES = 320;
export const READMES = ['README.md', 'README.zh-CN.md'];

/** The Markdown files checked under `root`. */
export function markdownFiles(root) {
  const docs = existsSync(path.join(root, 'docs'))
    ? readdirSync(path.join(root, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`)
    : [];
  return [...READMES, 'CHANGELOG.md', ...docs].filter((f) => existsSync(path.join(root, f)));
}

/** Text without fenced code blocks, where a `#` line is not a heading. */
const unfenced = (text) => text.replace(/^```[\s\S]*?^```/gm, '');
/** Text without fenced code blocks and inline code, where a `](…)` is not a link. */
const prose = (text) => unfenced(text).replace(/`[^`\n]*`/g, '``');

/** GitHub's heading slug: lower case, punctuation dropped (CJK kept), spaces to hyphens. */
export function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The fragments the headings of `text` answer to (a repeated heading gets `-1`, `-2`, …). */
export function anchors(text) {
  const seen = new Map();
  const out = new Set();
  for (const m of unfenced(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1].replace(/`/g, ''));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Every `[text](target)` and `![alt](target)` target in `text`, outside code. */
export function linkTargets(text) {
  return [...prose(text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
}

/** What is wrong with the links of `file` (relative to `root`), one sentence each. */
function linkProblems(root, file, readText) {
  const problems = [];
  const text = readText(file);
  for (const target of linkTargets(text)) {
    if (/^(mailto:|command:)/i.test(target)) continue;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
      if (/^https?:\/\/(www\.)?github\.com\/[^/]+\/gateway-studio\b|example\.invalid/i.test(target))
        problems.push(`${file}: ${target} points into the repository by URL: write it as a relative link`);
      continue;
    }
    const [rawPath, fragment] = target.split('#', 2);
    const linked = rawPath ? path.posix.normalize(path.posix.join(path.posix.dirname(file), rawPath)) : file;
    if (linked.startsWith('..')) {
      problems.push(`${file}: ${target} leads out of the repository`);
      continue;
    }
    if (!existsSync(path.join(root, linked))) {
      problems.push(`${file}: ${target} does not exist (${linked})`);
      continue;
    }
    if (fragment && linked.endsWith('.md') && !anchors(readText(linked)).has(decodeURIComponent(fragment)))
      problems.push(`${file}: ${target}: no heading "#${fragment}" in ${linked}`);
  }
  return problems;
}

/** What the READMEs may not hold, one sentence each. */
function readmeProblems(file, text) {
  const problems = [];
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > README_MAX_LINES) problems.push(`${file}: ${lines} lines, over ${README_MAX_LINES}`);
  text.split('\n').forEach((line, i) => {
    const at = `${file}:${i + 1}`;
    const testFile = line.match(
      /[\w/.-]*\.(test|e2e|bench)\.tsx?\b|\btest\/(unit|integration|e2e|webview|faults|llama)\//,
    );
    if (testFile) problems.push(`${at}: names a test file (${testFile[0]}): that belongs in docs/`);
    for (const m of line.matchAll(/(?<![\w#/.-])[0-9a-f]{7,40}(?![\w-]|\.\w)/g))
      if (/[a-f]/.test(m[0]) && /[0-9]/.test(m[0]))
        problems.push(`${at}: looks like a commit hash (${m[0]}): that belongs in docs/`);
  });
  return problems;
}

/** Every problem with the Markdown under `root`. */
export function docsProblems(root) {
  const cache = new Map();
  const readText = (f) => {
    if (!cache.has(f)) cache.set(f, readFileSync(path.join(root, f), 'utf8'));
    return cache.get(f);
  };
  const problems = [];
  for (const file of markdownFiles(root)) {
    problems.push(...linkProblems(root, file, readText));
    if (READMES.includes(file)) problems.push(...readmeProblems(file, readText(file)));
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = docsProblems(process.cwd());
  for (const p of problems) console.error(p);
  process.exit(problems.length ? 1 : 0);
}
