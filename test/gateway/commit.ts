/**
 * A commit-message request (src/scm/commitMessage/core/request.ts, recognised by its system
 * message): the fake model answers the way real ones often do, with a preamble and a fence around
 * a Conventional Commits message that names every file of the diff, so a test can check both the
 * cleaning and that each file reached the model. Directives quoted in the diff are not obeyed.
 */

/** The start of the extension's commit-message instructions. */
const COMMIT_PROMPT_START = 'You write git commit messages.';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : '')).join('\n');
}

/** True when the request's first message is the commit-message instruction. */
export function isCommitRequest(body: unknown): boolean {
  if (!isObj(body) || !Array.isArray(body.messages)) return false;
  const first: unknown = body.messages[0];
  return isObj(first) && first.role === 'system' && textOf(first.content).startsWith(COMMIT_PROMPT_START);
}

/** The answer: every file named by a `diff --git` line or a summary line, and untracked names. */
export function commitAnswer(body: Json): string {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const user = textOf(isObj(messages[1]) ? messages[1].content : '');
  const files = new Set<string>();
  for (const m of user.matchAll(/^diff --git a\/(\S+) b\//gm)) files.add(m[1]!);
  for (const m of user.matchAll(/^- (\S+): (?:added|deleted|renamed|modified|binary)/gm)) files.add(m[1]!);
  const names = [...files];
  const subject = names.length ? `feat: update ${names.join(' and ')}` : 'chore: update files';
  return `Here is a commit message for these changes:\n\n\`\`\`\n${subject}\n\nTouches ${names.length} file(s).\n\`\`\``;
}
