import { describe, expect, it } from 'vitest';
import { channelFileName, channelFilePart } from '../src/index.js';

describe('file names of a channel', () => {
  it('keep the channel name as shown, spaces and all, and the local times joined by _', () => {
    expect(channelFileName('Gate camera 门口', ['20261125080000', '20261125090000'], 'mp4')).toBe('Gate camera 门口_20261125080000_20261125090000.mp4');
    expect(channelFileName('Gate camera 门口', ['20261125083000'], 'png')).toBe('Gate camera 门口_20261125083000.png');
  });
  it('change only what a file system refuses', () => {
    expect(channelFilePart('a/b:c')).toBe('a_b_c');
    expect(channelFilePart('a\\b*?"<>|c')).toBe('a_b_c');
    expect(channelFilePart('tab\there')).toBe('tab_here');
    expect(channelFilePart('  Gate 1.  ')).toBe('Gate 1');
    expect(channelFilePart('')).toBe('channel');
    expect(channelFilePart(' / ')).toBe('_');
    expect(channelFilePart('43_1')).toBe('43_1');
  });
});
