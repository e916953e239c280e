/**
 * The wall's channel chooser on a site larger than one request (350 cameras): 100 a request, "load more" asks for
 * the next 100 until the count is reached (it showed the first 200 and no way to the rest but a
 * search); a search starts again from the first page of its matches. A row is a button for the
 * keyboard too (Tab, Enter), and the tour's chooser, which stays open for several picks, marks the
 * channels already in the tour (a click there showed nothing: audit, session 24).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { PickChannelModal } from '../src/features/live/components/PickChannelModal';
import { captureNotices, renderConsole, stubApi } from './helpers/console';
import { channelsPage, siteChannels } from './helpers/lists';

const CHANNELS = siteChannels(350);

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

describe('PickChannelModal: the wall chooser pages', () => {
  it('loads 100 at a time up to the last camera, which can be picked', async () => {
    const onPick = vi.fn();
    renderConsole(<PickChannelModal open title="选择通道" onPick={onPick} onClose={() => undefined} />);
    expect(await screen.findByText('Camera 100')).toBeInTheDocument();
    expect(screen.queryByText('Camera 101')).not.toBeInTheDocument();
    expect(screen.getByText('已显示 100 / 共 350 个')).toBeInTheDocument();
    for (const last of [200, 300, 350]) {
      fireEvent.click(screen.getByTestId('wall-picker-more'));
      expect(await screen.findByText(`Camera ${last}`)).toBeInTheDocument();
    }
    expect(screen.queryByTestId('wall-picker-more')).not.toBeInTheDocument();
    const calls = api.callsTo('/api/v1/all/channels');
    expect(calls.map((c) => c.query.get('start'))).toEqual(['0', '100', '200', '300']);
    for (const c of calls) {
      expect(c.query.get('limit')).toBe('100');
      expect(c.query.get('cameras')).toBe('1');
    }
    fireEvent.click(screen.getByText('Camera 350'));
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ name: 'Camera 350' }));
  });

  it('a search asks for its first page', async () => {
    renderConsole(<PickChannelModal open title="选择通道" onPick={() => undefined} onClose={() => undefined} />);
    await screen.findByText('Camera 100');
    fireEvent.change(screen.getByPlaceholderText('搜索通道名称'), { target: { value: 'Camera 77' } });
    expect(await screen.findByText('Camera 77')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Camera 100')).not.toBeInTheDocument());
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
