import { beforeEach, describe, expect, it } from 'vitest';
import {
  cellFlow,
  emptyWall,
  loadLoop,
  loadWall,
  loopCells,
  loopPages,
  nextEmptyCell,
  parseChannel,
  saveLoop,
  saveWall,
  setCell,
  type WallChannel,
  type WallState,
} from '../src/features/live/wall';

const ch = (n: number): WallChannel => ({ device: `d${n}`, channel: String(n), name: `Cam ${n}` });

beforeEach(() => localStorage.clear());

describe('wall layout storage', () => {
  it('starts with 4 empty cells', () => {
    const w = loadWall();
    expect(w.layout).toBe(4);
    expect(w.cells).toHaveLength(16);
    expect(w.cells.every((c) => c === null)).toBe(true);
  });

  it('keeps the layout and the channel of each cell under multi_screen_layout', () => {
    let w: WallState = { ...emptyWall(), layout: 9 };
    w = setCell(w, 0, ch(1));
    w = setCell(w, 8, ch(2));
    saveWall(w);
    expect(JSON.parse(localStorage.getItem('multi_screen_layout')!)).toMatchObject({ layout: 9 });
    const back = loadWall();
    expect(back.layout).toBe(9);
    expect(back.cells[0]).toEqual(ch(1));
    expect(back.cells[8]).toEqual(ch(2));
    expect(back.cells[1]).toBeNull();
  });

  it('survives bad stored data: unknown layout, junk cells, invalid JSON', () => {
    localStorage.setItem('multi_screen_layout', JSON.stringify({ layout: 5, cells: [ch(1), 'x', { device: '' }, null] }));
    const w = loadWall();
    expect(w.layout).toBe(4);
    expect(w.cells.slice(0, 4)).toEqual([ch(1), null, null, null]);
    localStorage.setItem('multi_screen_layout', '{oops');
    expect(loadWall()).toEqual(emptyWall());
  });

  it('keeps the tour with the layout: running or not and its page (a reload puts a running tour back)', () => {
    expect(loadWall().tour).toEqual({ running: false, page: 0 });
    saveWall({ ...setCell(emptyWall(), 0, ch(1)), layout: 9, tour: { running: true, page: 2 } });
    expect(JSON.parse(localStorage.getItem('multi_screen_layout')!)).toMatchObject({ layout: 9, tour: { running: true, page: 2 } });
    expect(loadWall()).toMatchObject({ layout: 9, tour: { running: true, page: 2 } });
    // A layout stored before (no tour) or a tour of junk: stopped, on its first page.
    for (const tour of [undefined, 'x', { running: 'yes', page: -1 }, { running: true, page: 1.5 }]) {
      localStorage.setItem('multi_screen_layout', JSON.stringify({ layout: 4, cells: [], tour }));
      expect(loadWall().tour).toEqual({ running: tour !== undefined && typeof tour === 'object' && tour.running === true, page: 0 });
    }
  });

  it('reads channels in the sidebar drag format and the server row format', () => {
    expect(parseChannel({ device: 'd', channel: '1', name: 'N' })).toEqual({ device: 'd', channel: '1', name: 'N' });
    expect(parseChannel({ DeviceID: 'd', ChannelID: 2, Name: 'M' })).toEqual({ device: 'd', channel: '2', name: 'M' });
    expect(parseChannel({ device: 'd' })).toBeNull();
    expect(parseChannel(null)).toBeNull();
  });

  it('ignores cells outside the wall and moves the selection to the next empty visible cell', () => {
    const w = emptyWall();
    expect(setCell(w, 16, ch(1))).toBe(w);
    let x = setCell(w, 0, ch(1));
    x = setCell(x, 1, ch(2));
    expect(nextEmptyCell(x, 0)).toBe(2);
    x = setCell(setCell(x, 2, ch(3)), 3, ch(4));
    expect(nextEmptyCell(x, 3)).toBe(3); // all four full: stay
  });
});

describe('cell flow', () => {
  it('main stream up to 4 cells, sub-stream above', () => {
    expect([1, 4, 9, 16].map((n) => cellFlow(n as 1 | 4 | 9 | 16))).toEqual([0, 0, 1, 1]);
  });
});

describe('loop mode', () => {
  it('saves channels with their ids and the interval under loop_channels', () => {
    saveLoop({ channels: [ch(1), ch(2)], interval: 15 });
    expect(JSON.parse(localStorage.getItem('loop_channels')!)).toEqual({ channels: [ch(1), ch(2)], channelIds: ['d1/1', 'd2/2'], interval: 15 });
    expect(loadLoop()).toEqual({ channels: [ch(1), ch(2)], channelIds: ['d1/1', 'd2/2'], interval: 15 });
  });

  it('defaults to 10 s and refuses intervals under 5 s', () => {
    expect(loadLoop().interval).toBe(10);
    localStorage.setItem('loop_channels', JSON.stringify({ channels: [], interval: 1 }));
    expect(loadLoop().interval).toBe(10);
  });

  it('pages through the channels a layout at a time, wrapping round', () => {
    const list = [1, 2, 3, 4, 5, 6].map(ch);
    expect(loopPages(list, 4)).toBe(2);
    expect(loopCells(list, 4, 0)).toEqual([ch(1), ch(2), ch(3), ch(4)]);
    expect(loopCells(list, 4, 1)).toEqual([ch(5), ch(6), null, null]);
    expect(loopCells(list, 4, 2)).toEqual(loopCells(list, 4, 0));
    expect(loopCells(list, 1, 5)).toEqual([ch(6)]);
    expect(loopCells([], 4, 3)).toEqual([null, null, null, null]);
  });
});
