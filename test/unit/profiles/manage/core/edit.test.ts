import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addProfile, freeId, newProfileProblem, removeProfile } from '../../../../../src/profiles/manage/core/edit';

void describe("edits of the user's profiles setting", () => {
  void it('adds a profile with a free id, keeping every other entry and field as written', () => {
    const before = [{ id: 'work', name: 'Work', baseUrl: 'https://w', future: 1 }];
    const r = addProfile(before, { name: 'Work', baseUrl: ' https://w2 ' });
    assert.equal(r.id, 'work-2');
    assert.deepEqual(r.value, [before[0], { id: 'work-2', name: 'Work', baseUrl: 'https://w2' }]);
    assert.equal(freeId(undefined, 'Default'), 'default-2', 'never the id of Default');
    assert.equal(addProfile('not a list', { name: 'A', baseUrl: 'https://a' }).value.length, 1);
  });

  void it('removes only the named profile, an entry without id by its name, and never Default', () => {
    const v = [{ id: 'a', baseUrl: 'x' }, { name: 'Home Relay', baseUrl: 'y' }, 'junk'];
    assert.deepEqual(removeProfile(v, 'home-relay'), [v[0], 'junk']);
    assert.deepEqual(removeProfile(v, 'a'), [v[1], 'junk']);
    assert.throws(() => removeProfile(v, 'default'), /cannot be removed/);
  });

  void it('refuses an empty name or a bad address', () => {
    assert.equal(newProfileProblem({ name: ' ', baseUrl: 'https://a' }), 'name');
    assert.match(newProfileProblem({ name: 'A', baseUrl: 'ftp://a' }) ?? '', /Profile "A"/);
    assert.equal(newProfileProblem({ name: 'A', baseUrl: 'https://a.example/v1' }), undefined);
  });
});
