// The answer cleaner, on answers shaped like real chat models' typical infill mistakes (as seen
// from GPT-4o-mini, DeepSeek-V3, Qwen2.5-Coder-Instruct and Llama-3 through OpenAI-compatible
// relays): fences, a sentence before the code, the current line or the whole file repeated, the
// code after the cursor repeated, and answers that must give no suggestion at all.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanCompletion, type CleanInput } from '../../../../../src/completion/inline/core/clean';

const TS_PREFIX = 'export function add(a: number, b: number): number {\n  return ';
const TS_SUFFIX = '\n}\n\nexport const zero = 0;\n';
const one = (answer: string, extra: Partial<CleanInput> = {}) =>
  cleanCompletion({ answer, prefix: TS_PREFIX, suffix: TS_SUFFIX, multiline: false, ...extra });
const block = (answer: string, prefix: string, suffix: string) =>
  cleanCompletion({ answer, prefix, suffix, multiline: true });

void describe('cleanCompletion: fences', () => {
  void it('takes the code of a fenced block with a language tag', () => {
    assert.equal(one('```typescript\na + b;\n```'), 'a + b;');
  });
  void it('drops the sentence before a fence and the note after it', () => {
    assert.equal(
      one("Here's the missing code:\n\n```ts\na + b;\n```\n\nThis returns the sum of both numbers."),
      'a + b;',
    );
  });
  void it('keeps the code of a fence cut by max_tokens (never closed)', () => {
    assert.equal(one('```ts\na + b;'), 'a + b;');
  });
  void it('a tilde fence too', () => {
    assert.equal(one('~~~\na + b;\n~~~'), 'a + b;');
  });
});

void describe('cleanCompletion: prose before the code', () => {
  void it('drops an unfenced sentence before the code', () => {
    assert.equal(one('The missing code is:\na + b;'), 'a + b;');
  });
  void it('drops "Sure! Here is the completion:"', () => {
    assert.equal(one('Sure! Here is the completion:\na + b;'), 'a + b;');
  });
  void it('prose only gives no suggestion', () => {
    assert.equal(one('I cannot see enough of the file to complete this.'), undefined);
    assert.equal(one('Here is the completed function.'), undefined);
  });
  void it('an empty or blank answer gives no suggestion', () => {
    assert.equal(one(''), undefined);
    assert.equal(one('  \n\n'), undefined);
    assert.equal(one('```ts\n```'), undefined);
  });
});

void describe('cleanCompletion: repeated prefix', () => {
  void it('the current line restated is trimmed (the commonest mistake)', () => {
    assert.equal(one('return a + b;'), 'a + b;');
    assert.equal(one('  return a + b;'), 'a + b;');
  });
  void it('the end of the current line restated is trimmed', () => {
    assert.equal(
      cleanCompletion({
        answer: 'console.log(total);',
        prefix: 'const total = 3;\nconsole.',
        suffix: '\n',
        multiline: false,
      }),
      'log(total);',
    );
  });
  void it('the whole file sent back is reduced to what is new at the cursor', () => {
    assert.equal(one(`${TS_PREFIX}a + b;${TS_SUFFIX}`), 'a + b;');
  });
  void it('the whole file in a fence is reduced likewise', () => {
    assert.equal(one('```ts\n' + TS_PREFIX + 'a + b;' + TS_SUFFIX + '```'), 'a + b;');
  });
  void it('a file that restates earlier lines but does not reach the cursor gives no suggestion', () => {
    const prefix = 'import { readFile } from "node:fs/promises";\nconst data = await readFile(path);\nconst x = ';
    assert.equal(
      cleanCompletion({
        answer: 'import { readFile } from "node:fs/promises";\nimport { join } from "node:path";',
        prefix,
        suffix: '\n',
        multiline: false,
      }),
      undefined,
    );
  });
  void it('the indentation of an indented empty line is not doubled', () => {
    assert.equal(block('  return a + b;', 'function f(a, b) {\n  ', '\n}\n'), 'return a + b;');
  });
});

void describe('cleanCompletion: repeated suffix', () => {
  void it('the closing brace that is already after the cursor is cut', () => {
    assert.equal(block('return a + b;\n}', 'function f(a, b) {\n  ', '\n}\n'), 'return a + b;');
  });
  void it('a run into the next function (present after the cursor) is cut', () => {
    const prefix = 'def area(r):\n    ';
    const suffix = '\n\ndef perimeter(r):\n    return 2 * math.pi * r\n';
    assert.equal(
      block('return math.pi * r * r\n\ndef perimeter(r):\n    return 2 * math.pi * r', prefix, suffix),
      'return math.pi * r * r',
    );
  });
  void it('the end of the line already after the cursor is not inserted twice', () => {
    assert.equal(
      cleanCompletion({ answer: 'a, b);', prefix: 'const s = sum(', suffix: ');\n', multiline: false }),
      'a, b',
    );
  });
  void it('an answer that is only the suffix gives no suggestion', () => {
    assert.equal(
      block(
        'export const zero = 0;',
        'export function add(a, b) {\n  return a + b;\n}\n\n',
        'export const zero = 0;\n',
      ),
      undefined,
    );
  });
});

void describe('cleanCompletion: single line and block end', () => {
  void it('a single-line request keeps only the first line', () => {
    assert.equal(one('a + b;\n}\n\nexport function mul() {}'), 'a + b;');
  });
  void it('a block is cut where the enclosing block ends', () => {
    const prefix = 'function f(items: number[]) {\n  for (const i of items) {\n    ';
    assert.equal(block('console.log(i);\n  }\n  return items.length;\n}\n', prefix, '\n'), 'console.log(i);');
  });
  void it('brackets inside strings and comments do not end the block', () => {
    const prefix = 'function f() {\n  ';
    assert.equal(
      block('const s = "}";\n  // ) not code\n  return s;\n}', prefix, '\n'),
      'const s = "}";\n  // ) not code\n  return s;',
    );
  });
  void it('indentation-scoped code is cut at a line indented less than the cursor', () => {
    const prefix = 'def f(xs):\n    for x in xs:\n        ';
    assert.equal(
      block('print(x)\n        total += x\n    return total\n', prefix, '\n'),
      'print(x)\n        total += x',
    );
  });
  void it('a block keeps at most twelve lines', () => {
    const answer = Array.from({ length: 30 }, (_, k) => `  x${k}();`).join('\n');
    assert.equal(block(answer, 'function f() {\n', '\n')?.split('\n').length, 12);
  });
  void it('echoed FIM tokens are removed', () => {
    assert.equal(one('a + b;<|endoftext|>'), 'a + b;');
    assert.equal(one('<fim_middle>a + b;'), 'a + b;');
  });
  void it('CRLF answers become LF text', () => {
    assert.equal(block('x();\r\n  y();\r\n}', 'function f() {\n  ', '\n}'), 'x();\n  y();');
  });
});
