/**
 * The wall's channel chooser on a site larger than one request (201 cameras): 100 a request, "load more" asks for
 * the next 100 until the count is reached (it showed the first 200 and no way to the rest but a
 * search); a search starts again from the first page of its matches. A row is a button for the
 * keyboard too (Tab, Enter), and the tour's chooser, which stays open for several picks, marks the
 * channels already in the tour (a click there showed nothing: audit, session 24).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { PickChannelModal } from '../src/features/live/components/PickChannelModal';
import { LoopModal } from '../src/features/live/components/LoopModal';
import { captureNotices, renderConsole, stubApi } from './helpers/console';
import { channelsPage, siteChannels } from './helpers/lists';

/**
 * Two full pages and one camera more. Each page renders its 100 rows again in jsdom (~0.7 s of CPU on
 * a quiet machine): with 350 cameras the paging test took 17-19 s and the tour's 16-34 s beside six
 * busy loops, past the limit, and failed in the suite on a loaded machine.
 */
const CHANNELS = siteChannels(201);
/** The rows' renders are CPU: on a starved machine they take many times their quiet time. */
const LIMIT = { timeout: 60_000 };

let api: ReturnType<typeof stubApi>;
beforeEach(() => {
  captureNotices();
  api = stubApi({
    '/api/v1/all/channels': (c) => {
      const q = c.query.get('q') ?? '';
      return channelsPage(c, CHANNELS.filter((x) => !q || x.Name.includes(q)));
    },
  });
});

describe('PickChannelModal: the wall chooser pages', LIMIT, () => {
  it('loads 100 at a time up to the last camera, which can be picked', async () => {
    const onPick = vi.fn();
    renderConsole(<PickChannelModal open title="选择通道" onPick={onPick} onClose={() => undefined} />);
    expect(await screen.findByText('Camera 100')).toBeInTheDocument();
    expect(screen.queryByText('Camera 101')).not.toBeInTheDocument();
    expect(screen.getByText('已显示 100 / 共 201 个')).toBeInTheDocument();
    for (const last of [200, 201]) {
      fireEvent.click(screen.getByTestId('wall-picker-more'));
      expect(await screen.findByText(`Camera ${last}`)).toBeInTheDocument();
    }
    expect(screen.queryByTestId('wall-picker-more')).not.toBeInTheDocument();
    const calls = api.callsTo('/api/v1/all/channels');
    expect(calls.map((c) => c.query.get('start'))).toEqual(['0', '100', '200']);
    for (const c of calls) {
      expect(c.query.get('limit')).toBe('100');
      expect(c.query.get('cameras')).toBe('1');
    }
    fireEvent.click(screen.getByText('Camera 201'));
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ name: 'Camera 201' }));
  });

  it('a search asks for its first page', async () => {
    renderConsole(<PickChannelModal open title="选择通道" onPick={() => undefined} onClose={() => undefined} />);
    await screen.findByText('Camera 100');
    fireEvent.change(screen.getByPlaceholderText('搜索通道名称'), { target: { value: 'Camera 77' } });
    // The search's answer is on screen: its one row. (Camera 77 is on the first page too, and the old
    // rows go as the debounced search starts, before its request may have gone out.)
    await waitFor(() => expect(screen.getAllByTestId('wall-picker-item').map((r) => r.textContent)).toEqual([expect.stringContaining('Camera 77')]));
    const last = api.callsTo('/api/v1/all/channels').at(-1)!;
    expect([last.query.get('q'), last.query.get('start')]).toEqual(['Camera 77', '0']);
    // 1 match (77): no second page to load.
    expect(screen.queryByTestId('wall-picker-more')).not.toBeInTheDocument();
  });

  it('a row is picked from the keyboard, and the channels already chosen are marked', async () => {
    const onPick = vi.fn();
    const first = CHANNELS[0]!;
    renderConsole(
      <PickChannelModal open title="添加通道" picked={new Set([`${first.ParentDeviceID}/${first.ChannelID}`])} onPick={onPick} onClose={() => undefined} />,
    );
    await screen.findByText('Camera 2');
    const rows = screen.getAllByTestId('wall-picker-item');
    expect(rows[0]).toHaveAttribute('aria-pressed', 'true');
    expect(rows[0]).toHaveTextContent('已添加');
    expect(rows[1]).toHaveAttribute('aria-pressed', 'false');
    expect(rows[1]).not.toHaveTextContent('已添加');
    expect(rows[1]).toHaveAttribute('tabindex', '0');
    expect(rows[1]).toHaveAttribute('role', 'button');
    fireEvent.keyDown(rows[1]!, { key: 'Enter' });
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ name: 'Camera 2' }));
  });
});

describe('LoopModal: a tour over many cameras', LIMIT, () => {
  it('adds every match of the chooser\'s search at once, counts the tour and lists it a page at a time', async () => {
    // A tour over a site's hundreds of cameras was one click per camera in the chooser.
    const onSave = vi.fn();
    const tour = { channels: [{ device: '35', channel: '1', name: 'Camera 35' }], channelIds: ['35/1'], interval: 10 };
    renderConsole(<LoopModal open value={tour} onSave={onSave} onClose={() => undefined} />);
    expect(screen.getByTestId('loop-count')).toHaveTextContent('轮巡通道 (1)');
    fireEvent.click(screen.getByRole('button', { name: /添加通道/ }));
    await screen.findByText('Camera 100');
    expect(screen.getByTestId('wall-picker-all')).toHaveTextContent('全部添加（201 个）');
    // The matches of a search: Camera 3 and 30-39, 11 in all, and Camera 35 is in the tour already.
    fireEvent.change(screen.getByPlaceholderText('搜索通道名称'), { target: { value: 'Camera 3' } });
    await waitFor(() => expect(screen.getByTestId('wall-picker-all')).toHaveTextContent('全部添加（11 个）'));
    fireEvent.click(screen.getByTestId('wall-picker-all'));
    await waitFor(() => expect(screen.getByTestId('loop-count')).toHaveTextContent('轮巡通道 (11)'));
    // Read 500 at a time: one request for the 11, with the search.
    const all = api.callsTo('/api/v1/all/channels').filter((c) => c.query.get('limit') === '500');
    expect(all.map((c) => [c.query.get('q'), c.query.get('start')])).toEqual([['Camera 3', '0']]);
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    const saved = onSave.mock.calls[0]![0].channels as { name: string }[];
    expect(saved).toHaveLength(11);
    // Camera 35 was in the tour already: kept once, where it was; the rest follow in the list's order.
    expect(saved.slice(0, 3).map((c) => c.name)).toEqual(['Camera 35', 'Camera 3', 'Camera 30']);
    // The list shows 10 of them, with pages.
    const list = screen.getByText('Camera 35', { selector: '.ant-list-item' }).closest('.ant-list') as HTMLElement;
    expect(list.querySelectorAll('.ant-list-item')).toHaveLength(10);
    expect(within(list).getByTitle('2')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /全部移除/ }));
    expect(screen.getByTestId('loop-count')).toHaveTextContent('轮巡通道 (0)');
  });
});
