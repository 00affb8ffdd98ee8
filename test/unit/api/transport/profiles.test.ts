import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_PROFILE_ID,
  LEGACY_KEY_SLOT,
  activeOrDefault,
  keySlot,
  readProfiles,
} from '../../../../src/api/transport/profiles';

const defaults = { chatModel: 'gw-chat', videoModel: 'vendor-video-1.5' };

void describe('gateway profiles (issue 22)', () => {
  void it('without the setting there is one profile, Default, over the key of earlier versions', () => {
    const r = readProfiles(undefined, defaults);
    assert.deepEqual(
      r.profiles.map((p) => [p.id, p.name, p.chatModel, p.videoModel]),
      [[DEFAULT_PROFILE_ID, 'Default', 'gw-chat', 'vendor-video-1.5']],
    );
    assert.equal(keySlot(DEFAULT_PROFILE_ID), LEGACY_KEY_SLOT);
    assert.equal(LEGACY_KEY_SLOT, 'gatewayStudio.apiKey', 'the slot earlier versions wrote');
    assert.deepEqual(r.problems, []);
  });

  void it('reads further profiles with their own key slot, models and headers', () => {
    const r = readProfiles(
      [
        {
          name: 'Work relay',
          baseUrl: 'https://relay.example.com/v1',
          videoBaseUrl: 'https://video.example.com',
          chatModel: 'relay-chat',
          headers: { 'x-relay-token': 'relay-${apiKey}' },
        },
        { id: 'home', name: 'Home', baseUrl: 'http://127.0.0.1:8080' },
      ],
      defaults,
    );
    assert.deepEqual(
      r.profiles.map((p) => p.id),
      ['default', 'work-relay', 'home'],
    );
    const work = r.profiles[1]!;
    assert.equal(work.chatModel, 'relay-chat');
    assert.equal(work.videoModel, 'vendor-video-1.5', 'an unset model falls back to the global one');
    assert.deepEqual(work.headers, { 'x-relay-token': 'relay-${apiKey}' });
    assert.notEqual(keySlot('work-relay'), keySlot('home'));
    assert.notEqual(keySlot('work-relay'), LEGACY_KEY_SLOT);
    assert.deepEqual(r.problems, []);
  });

  void it('a bad URL, a missing URL or a refused header names the profile and keeps it unusable', () => {
    const r = readProfiles(
      [
        { id: 'a', name: 'A', baseUrl: 'ftp://x' },
        { id: 'b', name: 'B' },
        { id: 'c', name: 'C', baseUrl: 'https://u:p@x.example' },
        { id: 'd', name: 'D', baseUrl: 'https://d.example', headers: { authorization: 'Bearer x' } },
      ],
      defaults,
    );
    const [, a, b, c, d] = r.profiles;
    assert.match(a!.problems.join(), /Profile "A".*https:\/\/ or http:\/\//);
    assert.match(b!.problems.join(), /Profile "B": baseUrl is not set/);
    assert.match(c!.problems.join(), /Profile "C".*user name or password/);
    assert.match(d!.problems.join(), /Profile "D".*authorization/);
    assert.equal(r.problems.length, 4);
  });

  void it('skips malformed entries and duplicate ids, saying which', () => {
    const r = readProfiles(
      [
        3,
        { id: 'Bad Id!', baseUrl: 'https://x' },
        { id: 'x', baseUrl: 'https://x' },
        { id: 'x', baseUrl: 'https://y' },
      ],
      defaults,
    );
    assert.deepEqual(
      r.profiles.map((p) => p.id),
      ['default', 'x'],
    );
    assert.equal(r.problems.length, 3);
    assert.match(r.problems.join('\n'), /used twice/);
    assert.match(readProfiles({ a: 1 }, defaults).problems[0]!, /must be a list/);
  });

  void it('an entry with id "default" renames Default and gives it headers, never a URL', () => {
    const r = readProfiles(
      [{ id: 'default', name: 'Office', baseUrl: 'https://evil.example', headers: { 'x-t': '1' } }],
      defaults,
    );
    assert.equal(r.profiles.length, 1);
    assert.equal(r.profiles[0]!.name, 'Office');
    assert.equal(r.profiles[0]!.baseUrl, '', "Default's address stays gatewayStudio.baseUrl, behind the origin gate");
    assert.deepEqual(r.profiles[0]!.headers, { 'x-t': '1' });
  });

  void it('the active choice falls back to Default only for a removed profile', () => {
    const { profiles } = readProfiles([{ id: 'b', baseUrl: 'https://b' }], defaults);
    assert.equal(activeOrDefault(profiles, 'b').id, 'b');
    assert.equal(activeOrDefault(profiles, 'gone').id, 'default');
    assert.equal(activeOrDefault(profiles, undefined).id, 'default');
  });
});
