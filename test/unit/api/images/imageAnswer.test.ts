import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../../../../src/api/transport/errors';
import {
  explainImageFailure,
  imagesFromChatAnswer,
  imagesFromImagesAnswer,
} from '../../../../src/api/images/imageAnswer';

void describe('image answers', () => {
  void it('reads b64_json and url items, a data URL as base64, and keeps the revised prompt', () => {
    const out = imagesFromImagesAnswer(
      {
        data: [
          { b64_json: 'iVBOR', revised_prompt: 'a red fox' },
          { url: 'https://cdn.example.com/x.png' },
          { url: 'data:image/png;base64,AAAA' },
        ],
      },
      '/v1/images/generations',
    );
    assert.deepEqual(out, [
      { kind: 'b64', data: 'iVBOR', revisedPrompt: 'a red fox' },
      { kind: 'url', url: 'https://cdn.example.com/x.png' },
      { kind: 'b64', data: 'AAAA' },
    ]);
  });

  void it('an answer with neither b64_json nor url is an error, not an empty success', () => {
    for (const body of [{ data: [{ revised_prompt: 'x' }] }, { data: [] }, {}, null]) {
      assert.throws(
        () => imagesFromImagesAnswer(body, '/v1/images/generations'),
        (e: unknown) =>
          e instanceof GatewayError && e.kind === 'invalid_response' && /without any image/.test(e.message),
      );
    }
  });

  void it('reads the chat form: message.images, image parts, and a Markdown image', () => {
    const images = {
      choices: [
        {
          message: { content: 'ok', images: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,QQ==' } }] },
        },
      ],
    };
    assert.deepEqual(imagesFromChatAnswer(images), [{ kind: 'b64', data: 'QQ==' }]);
    const parts = {
      choices: [
        {
          message: {
            content: [
              { type: 'text', text: 'x' },
              { type: 'image_url', image_url: { url: 'https://a.example/i.png' } },
            ],
          },
        },
      ],
    };
    assert.deepEqual(imagesFromChatAnswer(parts), [{ kind: 'url', url: 'https://a.example/i.png' }]);
    const md = { choices: [{ message: { content: 'Here:\n![img](data:image/jpeg;base64,/9j/)' } }] };
    assert.deepEqual(imagesFromChatAnswer(md), [{ kind: 'b64', data: '/9j/' }]);
  });

  void it('a chat answer that refuses in words is the content-policy refusal; one with no image and no words is no image', () => {
    const refusal = { choices: [{ message: { content: 'I cannot make that: it violates the content policy.' } }] };
    assert.throws(() => imagesFromChatAnswer(refusal), /content policy: "I cannot make that/);
    assert.throws(() => imagesFromChatAnswer({ choices: [{ message: { content: '' } }] }), /without any image/);
  });

  void it("a moderation refusal is said in the relay's words with what it means; other errors pass unchanged", () => {
    const wire = new GatewayError('bad_request', 'Your request was rejected as a result of our safety system.', {
      status: 400,
      code: 'moderation_blocked',
    });
    const e = explainImageFailure(wire) as GatewayError;
    assert.match(e.message, /content policy: "Your request was rejected as a result of our safety system\."/);
    assert.match(e.message, /nothing should be billed/);
    assert.equal(e.code, 'moderation_blocked');
    const other = new GatewayError('bad_request', 'size must be one of …', { code: 'invalid_value' });
    assert.equal(explainImageFailure(other), other);
    const notGateway = new Error('x');
    assert.equal(explainImageFailure(notGateway), notGateway);
  });
});
