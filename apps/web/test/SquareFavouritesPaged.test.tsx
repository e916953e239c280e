/**
 * /video/square/0, 收藏夹, with 300 favourites: the server pages them, 20 cameras a request, and
 * matches the search (the page read every favourite, favorites limit 9999, to page and search here).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import SquarePage from '../src/features/live/pages/SquarePage';
import { captureNotices, renderConsole, stubApi } from './helpers/console';
import { channelsPage, siteChannels } from './helpers/lists';

vi.mock('../src/lib/ws', () => ({ useWsTopic: () => undefined }));

const FAVOURITES = siteChannels(300);

let api: ReturnType<typeof stubApi>;
beforeEach(() => {
  captureNotices();
  api = stubApi({
    '/api/v1/favorites': (c) => {
      const q = c.query.get('q') ?? '';
      return channelsPage(c, FAVOURITES.filter((x) => !q || x.Name.includes(q)));
    },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SquarePage: 300 favourites', { timeout: 60_000 }, () => {
  it('asks the server for the page shown and for the search', async () => {
    renderConsole(
      <Routes>
        <Route path="/video/square/:devid" element={<SquarePage />} />
      </Routes>,
      { path: '/video/square/0' },
    );
    expect(await screen.findByText('Camera 20')).toBeInTheDocument();
    expect(screen.getAllByTestId('square-channel')).toHaveLength(20);
    expect(screen.getByText('共 300 个通道')).toBeInTheDocument();
    fireEvent.click(screen.getByTitle('15'));
    expect(await screen.findByText('Camera 300')).toBeInTheDocument();
    const calls = api.callsTo('/api/v1/favorites');
    expect(calls.at(-1)!.query.get('start')).toBe('280');
    for (const c of calls) {
      expect(c.query.get('limit')).toBe('20');
      expect(c.query.get('cameras')).toBe('1');
    }

    fireEvent.change(screen.getByPlaceholderText('搜索通道名称'), { target: { value: 'Camera 42' } });
    await waitFor(() => expect(screen.getAllByTestId('square-channel')).toHaveLength(1), { timeout: 3000 });
    expect(screen.getByText('Camera 42')).toBeInTheDocument();
    const searched = api.callsTo('/api/v1/favorites').at(-1)!;
    expect(searched.query.get('q')).toBe('Camera 42');
    expect(searched.query.get('start')).toBe('0');
  });
});
