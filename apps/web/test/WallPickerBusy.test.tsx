/**
 * The wall's channel chooser says when its rows are about to change (aria-busy on the list): from the
 * keystroke, through the search's debounce and its request, until the matches are shown. A click on
 * a row while busy may land on the list that replaces it (the e2e wall test lost its pick that way).
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { PickChannelModal } from '../src/features/live/components/PickChannelModal';
import { renderConsole, stubApi } from './helpers/console';
import { channelsPage, siteChannels } from './helpers/lists';

const CHANNELS = siteChannels(12);

describe('PickChannelModal: busy while a search is pending', () => {
  it('is busy from typing until the matches are shown, then idle with only the matches', async () => {
    let answer: () => void = () => undefined;
    stubApi({
      '/api/v1/all/channels': (c) => {
        const q = c.query.get('q') ?? '';
        const page = channelsPage(c, CHANNELS.filter((x) => !q || x.Name.includes(q)));
        // The search's answer waits until the test lets it go; the first list comes at once.
        return q ? new Promise((resolve) => (answer = () => resolve(page))) : page;
      },
    });
    renderConsole(<PickChannelModal open title="选择通道" onPick={() => undefined} onClose={() => undefined} />);
    const list = screen.getByTestId('wall-picker');
    await screen.findByText('Camera 12');
    await waitFor(() => expect(list).toHaveAttribute('aria-busy', 'false'));

    fireEvent.change(screen.getByPlaceholderText('搜索通道名称'), { target: { value: 'Camera 7' } });
    // At once, before the debounce has let the search go: the old rows are still on screen.
    expect(list).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('Camera 12')).toBeInTheDocument();
    // The request is out (after the debounce) and unanswered: still busy.
    await waitFor(() => expect(screen.queryByText('Camera 12')).not.toBeInTheDocument());
    expect(list).toHaveAttribute('aria-busy', 'true');

    answer();
    await waitFor(() => expect(list).toHaveAttribute('aria-busy', 'false'));
    expect(screen.getAllByTestId('wall-picker-item').map((r) => r.textContent)).toEqual([expect.stringContaining('Camera 7')]);
  });
});
