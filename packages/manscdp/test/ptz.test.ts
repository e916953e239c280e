import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  consolePtzAction,
  decodePtzCmd,
  encodePtzCmd,
  ManscdpError,
  ptzBytes,
  ptzChecksum,
  type PtzAction,
} from '../src/index.js';

describe('PTZCmd bytes', () => {
  it('stop is A50F0100000000B5 (the value every GB platform sends)', () => {
    expect(encodePtzCmd({ type: 'stop' })).toBe('A50F0100000000B5');
  });

  it('directions set the annex A.3 bits, speeds in bytes 5, 6 and the high nibble of 7', () => {
    expect(encodePtzCmd({ type: 'move', tilt: 'up', panSpeed: 0, tiltSpeed: 0x64, zoomSpeed: 0 })).toBe(
      'A50F010800640021',
    );
    expect(encodePtzCmd({ type: 'move', pan: 'right', panSpeed: 0xff, tiltSpeed: 0, zoomSpeed: 0 })).toBe(
      'A50F0101FF0000B5',
    );
    const upLeftZoom = ptzBytes(
      encodePtzCmd({ type: 'move', pan: 'left', tilt: 'up', zoom: 'in', panSpeed: 1, tiltSpeed: 2, zoomSpeed: 15 }),
    );
    expect([...upLeftZoom.slice(3, 7)]).toEqual([0x1a, 1, 2, 0xf0]);
    expect(encodePtzCmd({ type: 'move', zoom: 'out', panSpeed: 0, tiltSpeed: 0, zoomSpeed: 8 }).slice(6, 14)).toBe(
      '20000080',
    );
  });

  it('presets: 81 set, 82 go to, 83 delete with the number in byte 6', () => {
    expect(encodePtzCmd({ type: 'preset', op: 'goto', preset: 1 })).toBe('A50F018200010038');
    expect(encodePtzCmd({ type: 'preset', op: 'set', preset: 255 }).slice(6, 12)).toBe('8100FF');
    expect(encodePtzCmd({ type: 'preset', op: 'delete', preset: 3 }).slice(6, 12)).toBe('830003');
  });

  it('focus and iris (FI, 0x4X)', () => {
    expect(encodePtzCmd({ type: 'fi', focus: 'near', focusSpeed: 0x80, irisSpeed: 0 }).slice(6, 12)).toBe('428000');
    expect(encodePtzCmd({ type: 'fi', iris: 'close', focusSpeed: 0, irisSpeed: 0x10 }).slice(6, 12)).toBe('480010');
  });

  // Captured: the eXosip platform of fixtures/README.md driving a Dahua DH-SD-6C3230UE-HN dome.
  it('decodes commands captured from a real platform-to-dome session', () => {
    expect(decodePtzCmd('A50F000800640020')).toEqual({
      type: 'move',
      tilt: 'up',
      pan: undefined,
      zoom: undefined,
      panSpeed: 0,
      tiltSpeed: 0x64,
      zoomSpeed: 0,
    });
    expect(decodePtzCmd('A50F0000000000B4')).toEqual({ type: 'stop' });
    expect(decodePtzCmd('A50F004100640059')).toMatchObject({ type: 'fi', focus: 'far', iris: undefined });
  });

  it('refuses malformed commands with a reason', () => {
    const reason = (s: string) => {
      try {
        decodePtzCmd(s);
      } catch (e) {
        expect(e).toBeInstanceOf(ManscdpError);
        return (e as Error).message;
      }
      return 'accepted';
    };
    expect(reason('A50F01000000')).toMatch(/16 hex digits/);
    expect(reason('B50F0100000000C5')).toMatch(/not A5/);
    expect(reason('A50E0100000000B4')).toMatch(/check nibble/);
    expect(reason('A50F0100000000B6')).toMatch(/checksum B6 should be B5/);
    expect(reason('A50F010C000000C1')).toMatch(/both bits/);
    expect(reason('A50F01FF000000B4')).toMatch(/not one of annex A.3/);
    expect(reason('A50F018200000037')).toMatch(/preset number 0/);
  });

  it('rejects out-of-range arguments', () => {
    expect(() => encodePtzCmd({ type: 'move', pan: 'left', panSpeed: 256, tiltSpeed: 0, zoomSpeed: 0 })).toThrow(
      /pan speed 256/,
    );
    expect(() => encodePtzCmd({ type: 'move', zoom: 'in', panSpeed: 0, tiltSpeed: 0, zoomSpeed: 16 })).toThrow(
      /zoom speed/,
    );
    expect(() => encodePtzCmd({ type: 'preset', op: 'goto', preset: 0 })).toThrow(/preset 0/);
  });
});

const speed = fc.integer({ min: 0, max: 255 });
const group = fc.integer({ min: 0, max: 255 });
const action: fc.Arbitrary<PtzAction> = fc.oneof(
  fc.constant<PtzAction>({ type: 'stop' }),
  fc
    .record({
      pan: fc.constantFrom(undefined, 'left' as const, 'right' as const),
      tilt: fc.constantFrom(undefined, 'up' as const, 'down' as const),
      zoom: fc.constantFrom(undefined, 'in' as const, 'out' as const),
      panSpeed: speed,
      tiltSpeed: speed,
      zoomSpeed: fc.integer({ min: 0, max: 15 }),
    })
    .filter((m) => m.pan !== undefined || m.tilt !== undefined || m.zoom !== undefined)
    .map((m): PtzAction => ({ type: 'move', ...m })),
  fc
    .record({
      focus: fc.constantFrom(undefined, 'near' as const, 'far' as const),
      iris: fc.constantFrom(undefined, 'open' as const, 'close' as const),
      focusSpeed: speed,
      irisSpeed: speed,
    })
    .map((m): PtzAction => ({ type: 'fi', ...m })),
  fc
    .record({
      op: fc.constantFrom('set' as const, 'goto' as const, 'delete' as const),
      preset: fc.integer({ min: 1, max: 255 }),
    })
    .map((m): PtzAction => ({ type: 'preset', ...m })),
  fc
    .record({ op: fc.constantFrom('add' as const), group, preset: fc.integer({ min: 1, max: 255 }) })
    .map((m): PtzAction => ({ type: 'cruise', ...m })),
  fc
    .record({
      op: fc.constantFrom('speed' as const, 'dwell' as const),
      group,
      value: fc.integer({ min: 0, max: 0xfff }),
    })
    .map((m): PtzAction => ({ type: 'cruise', ...m })),
  fc
    .record({ op: fc.constantFrom('start' as const, 'left' as const, 'right' as const), group })
    .map((m): PtzAction => ({ type: 'scan', ...m })),
  fc
    .record({ op: fc.constantFrom('on' as const, 'off' as const), aux: group })
    .map((m): PtzAction => ({ type: 'aux', ...m })),
);

describe('PTZCmd properties', () => {
  it('decode(encode(a)) is a, and the text is 16 upper-case hex digits starting A50F01', () => {
    fc.assert(
      fc.property(action, (a) => {
        const cmd = encodePtzCmd(a);
        expect(cmd).toMatch(/^A50F01[0-9A-F]{10}$/);
        expect(decodePtzCmd(cmd)).toEqual(a);
      }),
      { numRuns: 2000 },
    );
  });

  it('the last byte is the sum of the first seven mod 256; any single changed byte is caught', () => {
    fc.assert(
      fc.property(action, fc.integer({ min: 0, max: 7 }), fc.integer({ min: 1, max: 255 }), (a, at, delta) => {
        const b = ptzBytes(encodePtzCmd(a));
        expect(b[7]).toBe([...b.slice(0, 7)].reduce((s, x) => s + x, 0) % 256);
        expect(ptzChecksum(b)).toBe(b[7]);
        const bad = Uint8Array.from(b);
        bad[at] = (bad[at] + delta) & 0xff;
        const hex = [...bad].map((x) => x.toString(16).padStart(2, '0')).join('');
        expect(() => ptzBytes(hex)).toThrow(ManscdpError);
      }),
      { numRuns: 2000 },
    );
  });

  it('any 16-hex-digit text decodes or throws ManscdpError, nothing else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 8, maxLength: 8 }), fc.boolean(), (raw, fix) => {
        const b = Uint8Array.from(raw);
        if (fix) {
          b[0] = 0xa5;
          b[1] = 0x0f;
          b[7] = ptzChecksum(b);
        }
        const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
        try {
          decodePtzCmd(hex);
        } catch (e) {
          expect(e).toBeInstanceOf(ManscdpError);
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe('console commands (EasyCVR ptzcontrol command and speed)', () => {
  it('maps each direction, zoom and stop', () => {
    expect(encodePtzCmd(consolePtzAction('stop'))).toBe('A50F0100000000B5');
    const bits = (c: Parameters<typeof consolePtzAction>[0]) =>
      ptzBytes(encodePtzCmd(consolePtzAction(c, { speed: 100 })))[3];
    expect(bits('up')).toBe(0x08);
    expect(bits('down')).toBe(0x04);
    expect(bits('left')).toBe(0x02);
    expect(bits('right')).toBe(0x01);
    expect(bits('upleft')).toBe(0x0a);
    expect(bits('upright')).toBe(0x09);
    expect(bits('downleft')).toBe(0x06);
    expect(bits('downright')).toBe(0x05);
    expect(bits('zoomin')).toBe(0x10);
    expect(bits('zoomout')).toBe(0x20);
    expect(bits('focusnear')).toBe(0x42);
    expect(bits('irisopen')).toBe(0x44);
  });

  it('speed 1-255 is used as is; percent is scaled; zoom speed is the same fraction of 15', () => {
    expect(consolePtzAction('upleft', { speed: 100 })).toMatchObject({ panSpeed: 100, tiltSpeed: 100, zoomSpeed: 0 });
    expect(consolePtzAction('up', { speed: 50, scale: 'percent' })).toMatchObject({ tiltSpeed: 128, panSpeed: 0 });
    expect(consolePtzAction('zoomin', { speed: 255 })).toMatchObject({ zoomSpeed: 15 });
    expect(consolePtzAction('zoomin', { speed: 1 })).toMatchObject({ zoomSpeed: 1 });
    expect(consolePtzAction('left', { speed: 999 })).toMatchObject({ panSpeed: 255 });
    expect(consolePtzAction('left', { speed: 0 })).toMatchObject({ panSpeed: 1 });
  });

  it('refuses an unknown command', () => {
    expect(() => consolePtzAction('spin' as never)).toThrow(/not one of/);
  });
});
