// The image tools' inputs: accepted shapes, and every shape error as a rule with its field.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  editImageInputSchema,
  generateImageInputSchema,
  parseImageInput,
} from '../../../../../src/images/tools/core/toolInput';

void describe('image tool input', () => {
  void it('accepts the documented fields', () => {
    const g = parseImageInput(generateImageInputSchema, { prompt: 'a', n: 2, size: 'auto', background: 'transparent' });
    assert.ok(g.ok);
    const e = parseImageInput(editImageInputSchema, { image: 'a.png', prompt: 'b', mask: 'm.png' });
    assert.ok(e.ok);
  });

  void it('a missing or mistyped field is a rule named after it', () => {
    const e = parseImageInput(editImageInputSchema, { prompt: 'b', mask: 3 });
    assert.ok(!e.ok);
    assert.deepEqual(e.issues.map((i) => i.rule).sort(), ['input-image', 'input-mask']);
    assert.match(e.issues.find((i) => i.field === 'mask')!.message, /mask: expected string \(rule: input-mask\)/);
    const g = parseImageInput(generateImageInputSchema, 'draw a fox');
    assert.ok(!g.ok);
    assert.equal(g.issues[0]!.rule, 'input-shape');
  });
});
