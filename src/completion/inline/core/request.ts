/**
 * The two ways to ask for a completion. A model marked `completion: "fim"` gets fill-in-the-middle
 * on `/v1/completions`: the prompt is the text before the cursor (after a comment header naming
 * the file and quoting the snippets), the suffix the text after it. Any other model gets the chat
 * endpoint with an infill prompt that shows the file with a hole and asks for the hole's code
 * only; its answer goes through ./clean either way.
 */
import type { FimRequest } from '../../../api/completions/completions';
import type { ChatRequest } from '../../../api/chat/wire';
import type { CompletionContext } from './context';

/** Small answers: a line, or a short block. */
export const MAX_TOKENS = { line: 48, block: 160 } as const;
export const HOLE = '{{FILL_HERE}}';

const HASH = new Set([
  'python',
  'shellscript',
  'ruby',
  'perl',
  'r',
  'yaml',
  'toml',
  'dockerfile',
  'makefile',
  'powershell',
  'coffeescript',
  'julia',
  'elixir',
  'nim',
]);
const DASHES = new Set(['sql', 'lua', 'haskell', 'ada', 'elm']);
const MARKUP = new Set(['html', 'xml', 'markdown', 'vue-html', 'svg']);

/** A line comment in `languageId` (the header of a FIM prompt must not break the code). */
export function lineComment(languageId: string, text: string): string {
  if (HASH.has(languageId)) return `# ${text}`;
  if (DASHES.has(languageId)) return `-- ${text}`;
  if (MARKUP.has(languageId)) return `<!-- ${text.replace(/--/g, '- -')} -->`;
  return `// ${text}`;
}

/** The fill-in-the-middle request for `ctx`. */
export function fimRequest(ctx: CompletionContext, model: string): FimRequest {
  const header = [lineComment(ctx.languageId, `Path: ${ctx.path}`)];
  for (const s of ctx.snippets) {
    header.push(lineComment(ctx.languageId, `Compare this snippet from ${s.path}:`));
    for (const l of s.text.split('\n')) header.push(lineComment(ctx.languageId, l));
  }
  return {
    model,
    prompt: `${header.join('\n')}\n${ctx.prefix}`,
    suffix: ctx.suffix,
    max_tokens: ctx.multiline ? MAX_TOKENS.block : MAX_TOKENS.line,
    temperature: 0,
    // One line: stop at its end; a block: stop at a blank-line pair (the next paragraph of code).
    stop: ctx.multiline ? ['\n\n\n'] : ['\n'],
  };
}

const SYSTEM = [
  'You are a code completion engine inside an editor.',
  `You receive a source file in which ${HOLE} marks the cursor.`,
  `Answer with only the code that replaces ${HOLE}: no explanation, no Markdown fences, and none of the code before or after the cursor.`,
  'If nothing should be inserted, answer with nothing.',
].join(' ');

/** The chat request that asks a chat model to fill the hole. */
export function chatInfillRequest(ctx: CompletionContext, model: string): ChatRequest {
  const parts: string[] = [];
  for (const s of ctx.snippets) parts.push(`Related code from ${s.path}:\n${s.text}\n`);
  parts.push(`File: ${ctx.path} (language: ${ctx.languageId})`);
  parts.push(`${ctx.prefix}${HOLE}${ctx.suffix}`);
  parts.push(
    ctx.multiline
      ? `Complete the code at ${HOLE}: at most a short block, ending where the enclosing block ends.`
      : `Complete the code at ${HOLE}: the rest of the current line only.`,
  );
  return {
    model,
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: parts.join('\n') },
    ],
    max_tokens: ctx.multiline ? MAX_TOKENS.block : MAX_TOKENS.line,
    temperature: 0,
  };
}
