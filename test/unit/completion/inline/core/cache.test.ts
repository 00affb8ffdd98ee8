// The prefix-keyed cache: typing the suggested characters reuses the suggestion.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SuggestionCache } from '../../../../../src/completion/inline/core/cache';

void describe('SuggestionCache', () => {
  void it('typing the characters of the suggestion gives the rest of it', () => {
    const c = new SuggestionCache();
    c.put('a.ts', 'return ', ';\n}', 'a + b');
    assert.equal(c.get('a.ts', 'return ', ';\n}'), 'a + b');
    assert.equal(c.get('a.ts', 'return a', ';\n}'), ' + b');
    assert.equal(c.get('a.ts', 'return a +', ';\n}'), ' b');
  });
  void it('nothing once it is all typed, or typed differently, or elsewhere', () => {
    const c = new SuggestionCache();
    c.put('a.ts', 'return ', ';\n}', 'a + b');
    assert.equal(c.get('a.ts', 'return a + b', ';\n}'), undefined);
    assert.equal(c.get('a.ts', 'return x', ';\n}'), undefined);
    assert.equal(c.get('a.ts', 'return a', '\n}'), undefined);
    assert.equal(c.get('b.ts', 'return a', ';\n}'), undefined);
    assert.equal(c.get('a.ts', 'xreturn a', ';\n}'), undefined);
  });
  void it('keeps at most max entries and forgets a document', () => {
    const c = new SuggestionCache(2);
    c.put('a', '1', '', 'x1');
    c.put('a', '22', '', 'x2');
    c.put('b', '333', '', 'x3');
    assert.equal(c.get('a', '1', ''), undefined);
    assert.equal(c.get('a', '22', ''), 'x2');
    c.forget('a');
    assert.equal(c.get('a', '22', ''), undefined);
    assert.equal(c.get('b', '333', ''), 'x3');
  });
});
