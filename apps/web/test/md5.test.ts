/// <reference types="node" />
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { md5hex } from '../src/lib/md5';

const reference = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');

describe('md5hex', () => {
  it('matches the RFC 1321 test suite', () => {
    expect(md5hex('')).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(md5hex('a')).toBe('0cc175b9c0f1b6a831c399e269772661');
    expect(md5hex('abc')).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(md5hex('message digest')).toBe('f96b697d7cb7938d525a2f31aaf161d0');
    expect(md5hex('12345678901234567890123456789012345678901234567890123456789012345678901234567890')).toBe(
      '57edf4a22be3c955ac49da2e2107b67a',
    );
    expect(md5hex('admin')).toBe('21232f297a57a5a743894a0e4a801fc3');
  });

  it('hashes the UTF-8 bytes of any text, across block boundaries', () => {
    for (let n = 50; n <= 70; n++) expect(md5hex('x'.repeat(n))).toBe(reference('x'.repeat(n)));
    expect(md5hex('密码Pässwörd😀')).toBe(reference('密码Pässwörd😀'));
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => md5hex(s) === reference(s)),
      { numRuns: 300 },
    );
  });
});
