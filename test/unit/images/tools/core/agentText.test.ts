// What the image tools say: the approval with the price, a refusal's rules, the saved files.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { confirmationText, issuesText, savedText } from '../../../../../src/images/tools/core/agentText';

void describe('image tool texts', () => {
  void it('the approval names the model, the count, the inputs and the price', () => {
    const c = confirmationText(
      'edit',
      { model: 'gpt-image-1', prompt: 'make the background dark', n: 2, size: '1024x1024' },
      ['art/logo.png', 'art/mask.png'],
      'Price: about $0.08: 2 image(s) × $0.04, gpt-image-1',
    );
    assert.equal(c.title, 'Edit art/logo.png with gpt-image-1?');
    assert.match(c.message, /Images: 2\nSize: 1024x1024\nImage: art\/logo\.png\nMask: art\/mask\.png\n/);
    assert.match(c.message, /Price: about \$0\.08/);
    assert.match(c.message, /billed to your gateway account/);
    assert.equal(
      confirmationText('generate', { model: 'm', prompt: 'p' }, [], 'Price unknown').title,
      'Generate 1 image with m?',
    );
  });

  void it('a refusal lists each rule; the answer names the saved files and what was not saved', () => {
    assert.equal(
      issuesText([{ rule: 'n-max', field: 'n', message: 'at most 10' }]),
      'The image request was not sent: it breaks these rules (fix the input and call again).\n- n-max (n): at most 10',
    );
    assert.equal(
      savedText('generate', ['images/a.png', 'images/b.png'], []),
      'Saved 2 image(s) to: images/a.png, images/b.png.',
    );
    const partly = savedText('edit', [], ['disk full'], 'Estimated price: $0.04.');
    assert.match(partly, /no image could be saved.*do not call again.*disk full.*Estimated price/);
  });
});
