/**
 * The backchannel page's range download: a range without recordings is refused on the page, in its
 * language (the server's 404 reads "recordings of 1:1 from … to …不存在"); a range with some is fetched.
 * A range kept on a GB28181 device: its progress, then the file; cancelling it (the button, or leaving
 * the page) tells the server, which stops the device; one the server ended shows the server's reason.
 * A file over IN_PAGE_MAX_BYTES goes to the browser's own download instead of the tab's memory.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { DownloadPanel } from '../src/features/playback/components/DownloadPanel';
import { IN_PAGE_MAX_BYTES } from '../src/features/playback/download';
import { useSession } from '../src/lib/stores/session';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { adminSessionPerTest } from './helpers/session';

const admin = adminSessionPerTest();

const H = 3600;

describe('range download', () => {
  it('refuses a range with no recordings without asking the server', async () => {
    const api = stubApi({});
    renderConsole(<DownloadPanel device="1" channel="1" day="20261127" name="Gate" selection={null} onSelection={() => {}} ranges={[[7 * H, 7 * H + 200]]} />);
    fireEvent.change(screen.getByTestId('download-from'), { target: { value: '03:00:00' } });
    fireEvent.change(screen.getByTestId('download-to'), { target: { value: '03:10:00' } });
    fireEvent.click(screen.getByTestId('download-start'));
    await waitFor(() => expect(admin.notices).toContain('warning:该时间段内没有录像'));
    expect(api.calls).toHaveLength(0);
  });

  it('says why a range that ends before it starts cannot download', async () => {
    // The button was only greyed out, with nothing on the inputs: no way to tell what was wrong.
    const api = stubApi({});
    renderConsole(<DownloadPanel device="1" channel="1" day="20261127" name="Gate" selection={null} onSelection={() => {}} ranges={[[7 * H, 7 * H + 200]]} />);
    fireEvent.change(screen.getByTestId('download-from'), { target: { value: '16:00:00' } });
    fireEvent.change(screen.getByTestId('download-to'), { target: { value: '15:00:00' } });
    expect(screen.getByTestId('download-start')).toBeDisabled();
    expect(screen.getByTestId('download-range-error')).toHaveTextContent('结束时间须晚于开始时间');
    expect(screen.getByTestId('download-to')).toHaveClass('ant-input-status-error');
    // Put right, the message goes and the range downloads.
    fireEvent.change(screen.getByTestId('download-to'), { target: { value: '17:00:00' } });
    expect(screen.queryByTestId('download-range-error')).toBeNull();
    expect(screen.getByTestId('download-start')).toBeEnabled();
    expect(api.calls).toHaveLength(0);
  });

  it('says how much of a range across a gap is recorded: the file leaves the gap out', async () => {
    // A 100 s range over a 70 s gap is a 30 s file; the panel said only "100 秒".
    stubApi({});
    const gap: [number, number][] = [[9 * H, 9 * H + 37], [9 * H + 107, 9 * H + 300]];
    renderConsole(<DownloadPanel device="1" channel="1" day="20261127" name="Gate" selection={null} onSelection={() => {}} ranges={gap} />);
    fireEvent.change(screen.getByTestId('download-from'), { target: { value: '09:00:20' } });
    fireEvent.change(screen.getByTestId('download-to'), { target: { value: '09:02:00' } });
    expect(screen.getByTestId('download-length')).toHaveTextContent('100 秒，其中有录像的 30 秒（没有录像的时段不在文件中）');
    // All of it recorded: the length alone.
    fireEvent.change(screen.getByTestId('download-from'), { target: { value: '09:01:50' } });
    expect(screen.getByTestId('download-length')).toHaveTextContent(/^10 秒$/);
  });

  it('fetches a range that holds recordings', async () => {
    const api = stubApi({});
    renderConsole(<DownloadPanel device="1" channel="1" day="20261127" name="Gate" selection={null} onSelection={() => {}} ranges={[[7 * H, 7 * H + 200]]} />);
    fireEvent.change(screen.getByTestId('download-from'), { target: { value: '06:59:00' } });
    fireEvent.change(screen.getByTestId('download-to'), { target: { value: '07:01:00' } });
    fireEvent.click(screen.getByTestId('download-start'));
    await waitFor(() => expect(api.calls.map((c) => c.path)).toEqual(['/api/v1/record/recordvideo/download/mp4/1%3A1/20261127065900/20261127070100']));
    expect(admin.notices.filter((n) => n.startsWith('warning'))).toEqual([]);
  });

  it('shows what it saved in KB/MB, not a count of bytes', async () => {
    const body = 'x'.repeat(3 * 1024 * 1024 + 1024);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(body, { status: 200, headers: { 'Content-Length': String(body.length), 'Content-Type': 'video/mp4' } })),
    );
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} }));
    renderConsole(<DownloadPanel device="1" channel="1" day="20261127" name="Gate" selection={null} onSelection={() => {}} ranges={[[7 * H, 7 * H + 200]]} />);
    fireEvent.change(screen.getByTestId('download-from'), { target: { value: '06:59:00' } });
    fireEvent.change(screen.getByTestId('download-to'), { target: { value: '07:01:00' } });
    fireEvent.click(screen.getByTestId('download-start'));
    await waitFor(() => expect(screen.getByText(/已保存/)).toHaveTextContent(/（3\.00 MB）/));
    expect(screen.getByText(/已保存/).textContent).not.toMatch(/字节/);
  });

  it('says why a download failed under the range until the next one, not in a notice of 2 s', async () => {
    let fail = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        fail
          ? new Response(JSON.stringify({ code: 500, msg: 'disk read error' }), { status: 500, headers: { 'Content-Type': 'application/json' } })
          : new Response('x'.repeat(2048), { status: 200, headers: { 'Content-Length': '2048', 'Content-Type': 'video/mp4' } }),
      ),
    );
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} }));
    renderConsole(<DownloadPanel device="1" channel="1" day="20261127" name="Gate" selection={null} onSelection={() => {}} ranges={[[7 * H, 7 * H + 200]]} />);
    fireEvent.change(screen.getByTestId('download-from'), { target: { value: '06:59:00' } });
    fireEvent.change(screen.getByTestId('download-to'), { target: { value: '07:01:00' } });
    fireEvent.click(screen.getByTestId('download-start'));
    expect(await screen.findByTestId('download-error')).toHaveTextContent('下载失败：disk read error');
    expect(admin.notices).toEqual([]);
    fail = false;
    fireEvent.click(screen.getByTestId('download-start'));
    await waitFor(() => expect(screen.getByText(/已保存/)).toBeInTheDocument());
    expect(screen.queryByTestId('download-error')).toBeNull();
  });

  it('hands a file too large for the page to the browser: a link to the same range, signed in by its token', async () => {
    // 8 hours at 4 Mbit/s is 14 GB: its bytes were gathered in the tab (twice: the chunks, then the Blob).
    const total = 14 * 1024 ** 3;
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      // A few MB stand for the 14 GB: only the first of them may be read.
      pull(c) {
        pulled += 1;
        if (pulled > 64) c.close();
        else c.enqueue(new Uint8Array(64 * 1024));
      },
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(body, { status: 200, headers: { 'Content-Length': String(total), 'Content-Type': 'video/mp4', 'Content-Disposition': "attachment; filename*=UTF-8''Gate_20261127000000_20261127080000.mp4" } })),
    );
    const blobs = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: blobs, revokeObjectURL: () => {} }));
    const clicked: HTMLAnchorElement[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    try {
      renderConsole(<DownloadPanel device="1" channel="1" day="20261127" name="Gate" selection={null} onSelection={() => {}} ranges={[[0, 8 * H]]} />);
      fireEvent.change(screen.getByTestId('download-from'), { target: { value: '00:00:00' } });
      fireEvent.change(screen.getByTestId('download-to'), { target: { value: '08:00:00' } });
      fireEvent.click(screen.getByTestId('download-start'));
      expect(await screen.findByTestId('download-handed-off')).toHaveTextContent('Gate_20261127000000_20261127080000.mp4（14.00 GB）较大，已交给浏览器下载，进度见浏览器的下载列表');
      expect(clicked).toHaveLength(1);
      const link = new URL(clicked[0].href);
      expect(link.pathname).toBe('/api/v1/record/recordvideo/download/mp4/1%3A1/20261127000000/20261127080000');
      expect(link.searchParams.get('token')).toBe(useSession.getState().token);
      expect(clicked[0].download).toBe('Gate_20261127000000_20261127080000.mp4');
      expect(blobs).not.toHaveBeenCalled();
      expect(pulled).toBeLessThan(64);
      expect(total).toBeGreaterThan(IN_PAGE_MAX_BYTES);
      expect(screen.queryByTestId('download-progress')).toBeNull();
      expect(screen.getByTestId('download-start')).toBeEnabled();
    } finally {
      click.mockRestore();
    }
  });

  it('a range kept on a GB28181 device: the server fetches it from the device (its progress shown), then the file is saved', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} }));
    const id = 'a'.repeat(32);
    const info = (State: string, Progress: number) => v1({ request_id: id, State, Progress, URL: State === 'done' ? `/api/v1/downloadrecord/file/${id}` : '', Name: 'Gate.mp4' });
    const api = stubApi({
      '/api/v1/downloaddevicerecord/1%3A1/20261127065900/120': () => info('downloading', 0),
      '/api/v1/downloadrecord/streaminfo': () => info('done', 100),
      [`/api/v1/downloadrecord/file/${id}`]: () => ({ mp4: true }),
    });
    renderConsole(<DownloadPanel source="Device" device="1" channel="1" day="20261127" name="Gate" selection={null} onSelection={() => {}} ranges={[[7 * H, 7 * H + 200]]} />);
    fireEvent.change(screen.getByTestId('download-from'), { target: { value: '06:59:00' } });
    fireEvent.change(screen.getByTestId('download-to'), { target: { value: '07:01:00' } });
    fireEvent.click(screen.getByTestId('download-start'));
    await waitFor(() => expect(screen.getByTestId('download-bytes')).toHaveTextContent('设备正在传输录像 0%'));
    await waitFor(() => expect(screen.getByText(/已保存/)).toHaveTextContent('已保存 Gate.mp4'), { timeout: 5000 });
    expect(api.calls.map((c) => c.path)).toEqual([
      '/api/v1/downloaddevicerecord/1%3A1/20261127065900/120',
      '/api/v1/downloadrecord/streaminfo',
      `/api/v1/downloadrecord/file/${id}`,
    ]);
    expect(api.calls[0].query.get('speed')).toBe('4');
    expect(api.calls[1].query.get('request_id')).toBe(id);
  });

  describe('cancelling a device download', () => {
    const id = 'b'.repeat(32);
    const info = (State: string, Progress: number, Reason = '') => v1({ request_id: id, State, Progress, Reason, URL: '', Name: 'Gate.mp4' });
    const startPath = '/api/v1/downloaddevicerecord/1%3A1/20261127065900/120';
    const start = () => {
      fireEvent.change(screen.getByTestId('download-from'), { target: { value: '06:59:00' } });
      fireEvent.change(screen.getByTestId('download-to'), { target: { value: '07:01:00' } });
      fireEvent.click(screen.getByTestId('download-start'));
    };
    const panel = () => (
      <DownloadPanel source="Device" device="1" channel="1" day="20261127" name="Gate" selection={null} onSelection={() => {}} ranges={[[7 * H, 7 * H + 200]]} />
    );

    it('the cancel button stops it on the server (downloadrecord/stop with its id), quietly', async () => {
      const api = stubApi({
        [startPath]: () => info('downloading', 10),
        '/api/v1/downloadrecord/streaminfo': () => info('downloading', 20),
        '/api/v1/downloadrecord/stop': () => info('cancelled', 20, '下载已取消'),
      });
      renderConsole(panel());
      start();
      await waitFor(() => expect(screen.getByTestId('download-bytes')).toHaveTextContent('设备正在传输录像 10%'));
      fireEvent.click(screen.getByRole('button', { name: /取消下载/ }));
      await waitFor(() => expect(api.callsTo('/api/v1/downloadrecord/stop')).toHaveLength(1));
      expect(api.callsTo('/api/v1/downloadrecord/stop')[0].query.get('request_id')).toBe(id);
      await waitFor(() => expect(screen.getByTestId('download-start')).toBeInTheDocument());
      expect(admin.notices.filter((n) => n.startsWith('error'))).toEqual([]);
    });

    it('leaving the page while the device sends stops it on the server', async () => {
      const api = stubApi({
        [startPath]: () => info('downloading', 10),
        '/api/v1/downloadrecord/streaminfo': () => info('downloading', 20),
        '/api/v1/downloadrecord/stop': () => info('cancelled', 20),
      });
      const view = renderConsole(panel());
      start();
      await waitFor(() => expect(screen.getByTestId('download-bytes')).toHaveTextContent('设备正在传输录像 10%'));
      view.unmount();
      await waitFor(() => expect(api.callsTo('/api/v1/downloadrecord/stop')).toHaveLength(1));
    });

    it('one the server cancelled (nobody followed it) ends with the server\'s reason', async () => {
      stubApi({
        [startPath]: () => info('downloading', 10),
        '/api/v1/downloadrecord/streaminfo': () => info('cancelled', 30, '120秒内无人查看下载进度，下载已停止'),
      });
      renderConsole(panel());
      start();
      await waitFor(() => expect(screen.getByTestId('download-error')).toHaveTextContent('下载失败：120秒内无人查看下载进度，下载已停止'), { timeout: 5000 });
      expect(admin.notices.filter((n) => n.startsWith('error'))).toEqual([]);
    });
  });
});
