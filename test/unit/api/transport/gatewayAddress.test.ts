// Which gateway address gets the key: the user's own value freely, a workspace's only after the
// user's yes for its origin, never in an untrusted workspace.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideAddress, originOf } from '../../../../src/api/transport/gatewayAddress';

const USER = 'https://gw.example.com/v1';
const EVIL = 'https://collect.evil.example/v1';
const trusted = { trusted: true, answers: {} };

void describe('decideAddress', () => {
  void it("the user's own value is used without asking", () => {
    assert.deepEqual(decideAddress({ defaultValue: '', globalValue: USER }, trusted), {
      kind: 'use',
      value: USER,
      source: 'user',
    });
  });

  void it('a workspace value on another origin is asked about before any use', () => {
    const d = decideAddress({ globalValue: USER, workspaceValue: EVIL }, trusted);
    assert.deepEqual(d, { kind: 'ask', value: EVIL, origin: 'https://collect.evil.example' });
    // The folder layer wins over the workspace layer, as in VS Code.
    const f = decideAddress({ globalValue: USER, workspaceValue: USER, workspaceFolderValue: EVIL }, trusted);
    assert.equal(f.kind, 'ask');
  });

  void it('a workspace value with no user value is asked about too', () => {
    assert.equal(decideAddress({ defaultValue: '', workspaceValue: EVIL }, trusted).kind, 'ask');
  });

  void it('the remembered answer for the origin decides: allowed is used, refused is refused', () => {
    const origin = 'https://collect.evil.example';
    assert.deepEqual(
      decideAddress({ globalValue: USER, workspaceValue: EVIL }, { trusted: true, answers: { [origin]: 'allow' } }),
      {
        kind: 'use',
        value: EVIL,
        source: 'workspace',
        origin,
      },
    );
    assert.deepEqual(
      decideAddress({ globalValue: USER, workspaceValue: EVIL }, { trusted: true, answers: { [origin]: 'refuse' } }),
      {
        kind: 'refused',
        value: EVIL,
        origin,
      },
    );
    // An answer for one origin says nothing about another (another port is another origin).
    const other = decideAddress(
      { globalValue: USER, workspaceValue: 'https://collect.evil.example:8443' },
      { trusted: true, answers: { [origin]: 'allow' } },
    );
    assert.equal(other.kind, 'ask');
  });

  void it("a workspace value on the user's own origin needs no question (another path there is fine)", () => {
    const d = decideAddress({ globalValue: USER, workspaceValue: 'https://gw.example.com/team/v1' }, trusted);
    assert.equal(d.kind, 'use');
    assert.equal(d.value, 'https://gw.example.com/team/v1');
  });

  void it('an untrusted workspace cannot set the address at all: the user value is used, nothing asked', () => {
    const d = decideAddress({ globalValue: USER, workspaceValue: EVIL }, { trusted: false, answers: {} });
    assert.deepEqual(d, { kind: 'use', value: USER, source: 'user', ignoredWorkspaceValue: EVIL });
    // Even an origin the user allowed elsewhere: Restricted Mode means the folder's settings are off.
    const allowed = decideAddress(
      { globalValue: USER, workspaceValue: EVIL },
      { trusted: false, answers: { 'https://collect.evil.example': 'allow' } },
    );
    assert.equal(allowed.value, USER);
  });

  void it("a dev container's value (the remote machine's settings) is asked about like a workspace's, and says so", () => {
    const d = decideAddress({ globalValue: USER, remoteValue: EVIL }, trusted);
    assert.deepEqual(d, { kind: 'ask', value: EVIL, origin: 'https://collect.evil.example', remote: true });
    const refused = decideAddress(
      { globalValue: USER, remoteValue: EVIL },
      { trusted: true, answers: { 'https://collect.evil.example': 'refuse' } },
    );
    assert.equal(refused.kind, 'refused');
    // A workspace value still overrides the container's, as VS Code's own order has it.
    assert.equal(decideAddress({ globalValue: USER, remoteValue: EVIL, workspaceValue: USER }, trusted).kind, 'use');
    assert.equal(decideAddress({ globalValue: USER, remoteValue: EVIL }, { trusted: false, answers: {} }).value, USER);
  });

  void it('the same host written differently is the same origin (case, default port, bare host)', () => {
    assert.equal(originOf('HTTPS://Collect.Evil.Example:443/v1/chat/completions'), 'https://collect.evil.example');
    assert.equal(originOf('collect.evil.example'), 'https://collect.evil.example');
    assert.equal(originOf('ftp://x'), undefined);
  });
});
