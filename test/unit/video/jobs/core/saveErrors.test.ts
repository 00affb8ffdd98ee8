import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { GatewayError } from '../../../../../src/api/transport/errors';
import { saveError } from '../../../../../src/video/jobs/core/saveErrors';

/** An error as node's file system raises it: a code and the syscall that failed. */
function fsError(code: string): Error {
  return Object.assign(new Error(`${code}: failed, write`), { code, syscall: 'write', errno: -1 });
}

/** The error a write to a full disk really raises (/dev/full answers every write with ENOSPC). */
function realDiskFull(): unknown {
  try {
    writeFileSync('/dev/full', 'video bytes');
  } catch (e) {
    return e;
  }
  return undefined;
}

void describe('words for a video that could not be saved', () => {
  void it('a full disk (the real ENOSPC of a write) names the folder and the code, and says the video waits on the gateway', () => {
    const err = realDiskFull() ?? fsError('ENOSPC');
    const e = saveError(err, '/work/videos');
    assert.equal(e?.kind, 'disk_full');
    assert.match(e!.title, /disk is full/);
    assert.match(e!.detail, /\/work\/videos/);
    assert.match(e!.detail, /ENOSPC/);
    assert.match(e!.detail, /still on the gateway/);
    assert.match(e!.detail, /gatewayStudio\.video\.outputFolder/);
  });

  void it('a quota or a file-size limit is a full disk too', () => {
    for (const code of ['EDQUOT', 'EFBIG']) {
      const e = saveError(fsError(code), '/out');
      assert.equal(e?.kind, 'disk_full', code);
      assert.match(e!.detail, new RegExp(code));
    }
  });

  void it('a folder that refuses writes (permissions, read-only) is unwritable, named with its code', () => {
    for (const code of ['EACCES', 'EPERM', 'EROFS']) {
      const e = saveError(fsError(code), '/ro');
      assert.equal(e?.kind, 'unwritable', code);
      assert.match(e!.title, /cannot be written/);
      assert.match(e!.detail, /\/ro refuses new files/);
      assert.match(e!.detail, new RegExp(code));
    }
  });

  void it('without a known folder the words say "the output folder"', () => {
    assert.match(saveError(fsError('ENOSPC'), undefined)!.detail, /the output folder/);
  });

  void it('anything else keeps the caller’s general words: other codes, errors without a syscall, non-errors', () => {
    assert.equal(saveError(fsError('ENOENT'), '/out'), undefined);
    // A gateway error carries the wire's code, not the system's: no syscall, so not a disk fault.
    const wire = new GatewayError('server', 'ENOSPC on the gateway', { code: 'ENOSPC' });
    assert.equal(saveError(wire, '/out'), undefined);
    assert.equal(saveError(Object.assign(new Error('x'), { syscall: 'write', code: 28 }), '/out'), undefined);
    assert.equal(saveError({ code: 'ENOSPC', syscall: 'write' }, '/out'), undefined);
    assert.equal(saveError('ENOSPC', '/out'), undefined);
  });
});
