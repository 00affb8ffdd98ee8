// get_diagnostics: the editor's problems, limited to files inside the workspace.
import type { ToolHost } from './host';
import { resolveWorkspacePath, type ResolvedPath } from './paths';
import { isSecretFile } from './protectedFiles';

/** get_diagnostics' answer, read when the call runs: the workspace's problems, errors first. */
export async function diagnosticsText(host: ToolHost, file: ResolvedPath | undefined): Promise<string> {
  if (!host.diagnostics) return 'Diagnostics are not available here.';
  const roots = host.roots();
  const all = host.diagnostics(file?.absolute);
  // Diagnostics of files outside the workspace (libraries, other folders) are not ours to
  // show; each file is checked once, however many problems it has.
  const relOf = new Map<string, string | undefined>();
  const secret = new Set<string>();
  for (const abs of new Set(all.map((d) => d.absolute))) {
    const r = await resolveWorkspacePath(abs, roots).catch(() => undefined);
    relOf.set(abs, r?.relative);
    // A problem's message may quote the file (a spelling checker's "Unknown word: sk…"), and
    // get_diagnostics may be trusted: a secret file's problems are only counted.
    if (r && (isSecretFile(r.relative) || isSecretFile(r.realRelative))) secret.add(abs);
  }
  const hidden = all.filter((d) => secret.has(d.absolute)).length;
  const hiddenNote = hidden
    ? `\n(${hidden} problem(s) in files that may hold secrets are not shown: their messages can quote the file.)`
    : '';
  const inside = all.filter((d) => relOf.get(d.absolute) !== undefined && !secret.has(d.absolute));
  const rank = { error: 0, warning: 1, information: 2, hint: 3 } as const;
  inside.sort((x, y) => rank[x.severity] - rank[y.severity]);
  const where = file ? file.relative : 'the workspace';
  if (inside.length === 0) return `No errors or warnings in ${where}.${hiddenNote}`;
  const lines = inside
    .slice(0, 200)
    .map(
      (d) =>
        `${relOf.get(d.absolute) ?? ''}:${d.line}:${d.column}: ${d.severity}: ${d.message}${d.source ? ` (${d.source})` : ''}`,
    );
  const more = inside.length > 200 ? `\n… and ${inside.length - 200} more` : '';
  return `${inside.length} problem(s) in ${where}:\n${lines.join('\n')}${more}${hiddenNote}`;
}
