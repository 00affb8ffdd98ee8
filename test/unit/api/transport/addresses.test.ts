// The literal forms a server-given URL may use to reach the user's machine or network, each refused
// for a public gateway; public addresses, including IPv6 forms that embed a public IPv4, stay public.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPrivateHost, isSpecialAddress } from '../../../../src/api/transport/addresses';
import { resolveResultUrl } from '../../../../src/api/video/videoStatus';

void describe('special addresses', () => {
  void it('refuses localhost with a final dot, *.localhost, mapped, compatible, NAT64 and 6to4 forms, and the special ranges', () => {
    for (const url of [
      'http://localhost./x.mp4',
      'http://dev.localhost/x.mp4',
      'http://dev.localhost./x.mp4',
      'http://[::7f00:1]/x.mp4',
      'http://[::127.0.0.1]/x.mp4',
      'http://[::ffff:7f00:1]/x.mp4',
      'http://[::ffff:a9fe:a9fe]/latest',
      'http://[64:ff9b::169.254.169.254]/latest',
      'http://[64:ff9b::7f00:1]/x.mp4',
      'http://[2002:7f00:1::]/x.mp4',
      'http://[::]/x.mp4',
      'http://0.0.0.0/x.mp4',
      'http://0/x.mp4',
      'http://127.0.0.1./x.mp4',
      'http://100.64.0.1/x.mp4',
      'http://198.18.0.1/x.mp4',
      'http://198.19.255.254/x.mp4',
      'http://224.0.0.251/x.mp4',
      'http://240.0.0.1/x.mp4',
      'http://255.255.255.255/x.mp4',
      'http://192.0.0.170/x.mp4',
      'http://[fc00::1]/x.mp4',
      'http://[fe80::1]/x.mp4',
      'http://[fec0::1]/x.mp4',
      'http://[ff02::1]/x.mp4',
      'http://[100::1]/x.mp4',
      'http://[2001:db8::1]/x.mp4',
    ]) {
      assert.throws(() => resolveResultUrl(url, 'https://gw.example.com/v1'), /your own network/, url);
    }
  });

  void it('keeps public addresses public, and judges an embedded IPv4 by itself (DNS64 answers for public hosts)', () => {
    for (const ip of [
      '8.8.8.8',
      '100.128.0.1',
      '198.20.0.1',
      '172.32.0.1',
      '2606:4700::1111',
      '64:ff9b::808:808',
      '::ffff:8.8.8.8',
      '2002:808:808::1',
    ])
      assert.equal(isSpecialAddress(ip), false, ip);
    assert.equal(isSpecialAddress('cdn.example.com'), undefined);
    assert.equal(isPrivateHost('cdn.example.com'), false);
    assert.equal(isSpecialAddress('fe80::1%eth0'), true);
  });
});
