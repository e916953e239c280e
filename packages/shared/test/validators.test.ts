import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  clampMapZoom,
  isIPv4,
  isMd5Hex,
  isStrongPassword,
  isValidHostName,
  passwordClasses,
  passwordStrength,
  SPECIAL_CHARS,
} from '../src/index.js';

describe('password classes and the 8-character / three-class rule', () => {
  it.each([
    ['abcdefgh', 1, false],
    ['abcdEFGH', 2, false],
    ['abcdEF12', 3, true],
    ['abcd12!!', 3, true],
    ['ABCD12!!', 3, true],
    ['Ab1!', 4, false], // four classes but too short
    ['Abc1!xyz', 4, true],
    ['1234567!', 2, false],
    ['', 0, false],
  ])('%s has %i classes, strong: %s', (pw, classes, strong) => {
    expect(passwordClasses(pw)).toBe(classes);
    expect(isStrongPassword(pw)).toBe(strong);
  });

  it('counts every special character the spec lists, and nothing else', () => {
    for (const c of SPECIAL_CHARS) expect(passwordClasses(c), c).toBe(1);
    for (const c of ['_', '-', '+', '=', '~', '[', ']', ' ']) expect(passwordClasses(c), c).toBe(0);
  });

  it('a strong password always has at least 8 characters and 3 classes (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), (pw) => {
        expect(isStrongPassword(pw)).toBe(pw.length >= 8 && passwordClasses(pw) >= 3);
      }),
    );
  });
});

describe('strength meter', () => {
  it('is weak below 50 %, normal below 75 %, strong from 75 %', () => {
    expect(passwordStrength('')).toEqual({ percent: 0, level: 'weak' });
    expect(passwordStrength('abc').level).toBe('weak');
    expect(passwordStrength('abcdefgh').level).toBe('weak');
    expect(passwordStrength('abcdEF12').level).toBe('normal');
    expect(passwordStrength('abcdEF12!@').level).toBe('strong');
    expect(passwordStrength('Ab1!').percent).toBeLessThan(50);
  });

  it('stays within 0..100 and its level follows the 25/50/75 thresholds (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 64 }), (pw) => {
        const { percent, level } = passwordStrength(pw);
        expect(percent).toBeGreaterThanOrEqual(0);
        expect(percent).toBeLessThanOrEqual(100);
        expect(level).toBe(percent >= 75 ? 'strong' : percent >= 50 ? 'normal' : 'weak');
        if (pw.length < 8) expect(level).toBe('weak');
      }),
    );
  });

  it('never goes down when a character class is added', () => {
    expect(passwordStrength('abcdefgh1').percent).toBeGreaterThan(passwordStrength('abcdefghi').percent);
    expect(passwordStrength('abcdefgh1!').percent).toBeGreaterThan(passwordStrength('abcdefgh12').percent);
  });
});

describe('host name rule of the cluster form', () => {
  it.each([
    ['api.example.com', true],
    ['a.b', true],
    ['node-1.cluster.local', true],
    ['10.0.0.1', true],
    ['localhost', false], // no dot
    ['ab', false], // under 3 characters
    ['-bad.example.com', false],
    ['bad-.example.com', false],
    ['under_score.example', false],
    ['a..b', false],
    [`${'a'.repeat(63)}.com`, true],
    [`${'a'.repeat(64)}.com`, false],
  ])('%s → %s', (host, ok) => {
    expect(isValidHostName(host)).toBe(ok);
  });

  it('refuses anything longer than 255 characters', () => {
    const long = `${'abcdefgh.'.repeat(28)}abcd`; // 256
    expect(long.length).toBe(256);
    expect(isValidHostName(long)).toBe(false);
    expect(isValidHostName(long.slice(1))).toBe(true);
  });
});

describe('other rules', () => {
  it('map zoom is capped at 24', () => {
    expect(clampMapZoom(25)).toBe(24);
    expect(clampMapZoom(24)).toBe(24);
    expect(clampMapZoom(3)).toBe(3);
  });
  it('md5 hex digests and IPv4 addresses', () => {
    expect(isMd5Hex('21232f297a57a5a743894a0e4a801fc3')).toBe(true);
    expect(isMd5Hex('21232F297A57A5A743894A0E4A801FC3')).toBe(true);
    expect(isMd5Hex('21232f297a57a5a743894a0e4a801fc')).toBe(false);
    expect(isIPv4('192.168.1.10')).toBe(true);
    expect(isIPv4('256.1.1.1')).toBe(false);
    expect(isIPv4('01.1.1.1')).toBe(false);
    expect(isIPv4('1.1.1')).toBe(false);
  });
});
