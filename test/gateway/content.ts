/** Canned answers of the fake chat models: long prose, a markdown sampler, word-by-word pieces. */

const WORDS = (
  'the gateway streams tokens to the editor while the client keeps every fragment in order and ' +
  'renders markdown safely so that users can read long answers without waiting for the whole ' +
  'response to arrive from the model behind the relay'
).split(' ');

/**
 * `#long N`: exactly N whitespace-separated tokens of markdown-ish prose, with a paragraph
 * break every ~60 tokens and a fenced code block every ~200 tokens (fence lines count as tokens).
 */
export function longText(n: number): string {
  const out: string[] = [];
  let count = 0;
  let sinceCode = 0;
  let sincePara = 0;
  let w = 0;
  while (count < n) {
    if (sinceCode >= 200 && n - count >= 12) {
      out.push(`\n\n\`\`\`ts\nconst block${count} = ${count};\nexport { block${count} };\n\`\`\`\n\n`);
      // A block is 10 tokens; checking room for 12 keeps the total at exactly N.
      const added = out[out.length - 1]!.split(/\s+/).filter(Boolean).length;
      count += added;
      sinceCode = 0;
      sincePara = 0;
      continue;
    }
    let word = WORDS[w % WORDS.length]!;
    if (sincePara === 0) word = word[0]!.toUpperCase() + word.slice(1);
    w += 1;
    count += 1;
    sinceCode += 1;
    sincePara += 1;
    const last = count === n;
    if (sincePara >= 60 || last) {
      out.push(`${word}.${last ? '' : '\n\n'}`);
      sincePara = 0;
    } else {
      out.push(`${word} `);
    }
  }
  return out.join('').trimEnd();
}

/** `#markdown`: one document with every construct the renderer must handle. */
export const MARKDOWN_DOC = [
  '# Markdown sampler',
  '',
  'Some **bold**, some *italic*, `inline code` and a [link](https://example.com/docs).',
  '',
  '## Lists',
  '',
  '- first item',
  '- second item',
  '  - nested item',
  '',
  '1. one',
  '2. two',
  '',
  '## Table',
  '',
  '| name | value |',
  '|---|---|',
  '| alpha | 1 |',
  '| beta | 2 |',
  '',
  '![diagram](https://example.com/diagram.png)',
  '',
  '## Code',
  '',
  '```ts',
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  '```',
  '',
  '```python',
  'def add(a, b):',
  '    return a + b',
  '```',
  '',
  '```json',
  '{ "name": "gateway-studio", "ok": true }',
  '```',
  '',
  '```bash',
  'npm run gateway -- --port 8080',
  '```',
  '',
  '> A quote to finish.',
].join('\n');

/** Cut text into stream pieces: each piece is a word with the whitespace before it; joining them gives the text back exactly. */
export function pieces(text: string): string[] {
  if (text === '') return [];
  return text.split(/(?<=\S)(?=\s)/);
}

/** Cut a string into pieces of at most `size` characters (tool-call argument fragments). */
export function fragments(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [''];
}

/** A rough token count: about four characters a token, at least one for non-empty text. */
export function tokenCount(text: string): number {
  return text === '' ? 0 : Math.max(1, Math.ceil(text.length / 4));
}
