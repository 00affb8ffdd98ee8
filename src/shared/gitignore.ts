/**
 * A small `.gitignore` matcher (the @-picker's file list, the tools' searches, inline completion's context): `vscode.workspace.findFiles` applies
 * `files.exclude` but not `.gitignore`. It covers what root `.gitignore` files use in practice:
 * comments, blank lines, `!` negation (last match wins), a trailing `/` (a folder and everything
 * under it), a leading or inner `/` (anchored at the root), `*`, `?`, `**` and `[…]` classes.
 */

interface Rule {
  re: RegExp;
  negate: boolean;
}

function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // `**/` matches any number of folders (also none); a trailing `**` everything below.
        if (glob[i + 2] === '/') {
          out += '(?:.*/)?';
          i += 2;
        } else {
          out += '.*';
          i += 1;
        }
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) out += '\\[';
      else {
        out += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '\\' && i + 1 < glob.length) {
      out += glob[i + 1]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      i += 1;
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return out;
}

/** Parses the text of a `.gitignore`; the result tells whether a root-relative path is ignored. */
export function gitignoreMatcher(source: string): (relPath: string) => boolean {
  const rules: Rule[] = [];
  for (const raw of source.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    if (negate) line = line.slice(1);
    line = line.replace(/\/+$/, '');
    if (line === '') continue;
    const anchored = line.includes('/');
    const body = globToRegex(line.replace(/^\//, ''));
    // A pattern names an entry; whatever lies under a matched folder is ignored with it.
    const re = new RegExp(`^${anchored ? '' : '(?:.*/)?'}${body}(?:/.*)?$`);
    rules.push({ re, negate });
  }
  return (relPath: string) => {
    const p = relPath.replace(/\\/g, '/').replace(/^\/+/, '');
    let ignored = false;
    for (const r of rules) if (r.re.test(p)) ignored = !r.negate;
    return ignored;
  };
}

/** Folder names a `.gitignore` ignores wholesale (`node_modules/`, `dist`), to exclude early. */
export function ignoredFolderNames(source: string): string[] {
  const names: string[] = [];
  for (const raw of source.split(/\r?\n/)) {
    const m = /^\/?([A-Za-z0-9._-]+)\/?\s*$/.exec(raw);
    if (m) names.push(m[1]!);
  }
  return names;
}
