// The profiles model (webview/chat/models/profiles.ts): the host's list, and a pick as a request.
import '../../nodePage';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createProfilesModel } from '../../../../../webview/chat/models/profiles';
import { recordPosts } from '../../nodePage';

void test('a pick asks the host to switch; the active profile is the host’s', () => {
  const posted = recordPosts();
  const p = createProfilesModel();
  p.onHost({
    type: 'profiles/list',
    profiles: [
      { id: 'default', name: 'Default' },
      { id: 'work', name: 'Work' },
    ],
    active: 'default',
  });
  p.switchTo('default');
  assert.deepEqual(posted, [], 'the active one is not asked for');
  p.switchTo('work');
  assert.deepEqual(posted, [{ type: 'profiles/switch', id: 'work' }]);
  assert.equal(p.active.value, 'default', 'shown until the host answers');
  p.onHost({ type: 'profiles/list', profiles: [], active: 'work' });
  assert.equal(p.active.value, 'work');
  assert.equal(p.version.value, 2);
});
