import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../../../../src/api/transport/errors';
import { imageLink } from '../../../../src/api/images/imageDownload';

const PUBLIC = 'https://gw.example.com/v1';
const refused = (f: () => unknown, re: RegExp) =>
  assert.throws(f, (e: unknown) => e instanceof GatewayError && re.test(e.message));

void describe('image links', () => {
  void it('accepts http(s) links and resolves a relative one against the gateway', () => {
    assert.equal(imageLink('https://cdn.example.net/a.png', PUBLIC).host, 'cdn.example.net');
    assert.equal(imageLink('/files/a.png', PUBLIC).toString(), 'https://gw.example.com/files/a.png');
  });

  void it("refuses file:, data: and a literal address in the user's network from a public gateway", () => {
    refused(() => imageLink('file:///etc/passwd', PUBLIC), /only http\(s\)/);
    refused(() => imageLink('http://169.254.169.254/latest/meta-data', PUBLIC), /your own network/);
    refused(() => imageLink('http://localhost:8080/x.png', PUBLIC), /your own network/);
    refused(() => imageLink('http://[::1]/x.png', PUBLIC), /your own network/);
    refused(() => imageLink('http://%zz', PUBLIC), /not a valid address/);
  });

  void it('a local gateway may link to its own network', () => {
    assert.equal(imageLink('http://127.0.0.1:9/x.png', 'http://127.0.0.1:8/v1').port, '9');
  });
});
