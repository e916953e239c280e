/** Paging the message log while messages arrive (a burst of online/offline) and are deleted. */
import { describe, expect, it } from 'vitest';
import { useAdminApp } from './admin-app.js';
import { form } from './support.js';

const api = useAdminApp();

interface Page {
  total: number;
  list: { ID: number; ChannelName: string }[];
}
const page = async (query: string): Promise<Page> => {
  const res = await api.t.app.inject({ url: `/api/v1/newslist?${query}`, headers: { token: api.admin } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body;
};
const add = (name: string, time?: Date) => api.t.ctx.news.add({ deviceId: 'dev1', channelId: name, channelName: name, online: false, time });
const names = (p: Page) => p.list.map((n) => n.ChannelName);

describe('message log paging', () => {
  it('a page after the last message held is stable while new messages arrive and others are deleted', async () => {
    // 30 messages, two of them at the same instant (the order is time, then ID).
    for (let i = 0; i < 30; i++) await add(`m${i}`, new Date(Date.UTC(2026, 0, 1, 0, i === 11 ? 10 : i)));
    const first = await page('start=0&limit=10');
    expect(names(first)).toEqual(['m29', 'm28', 'm27', 'm26', 'm25', 'm24', 'm23', 'm22', 'm21', 'm20']);

    // A burst arrives at the top, and a message above the cursor is deleted.
    for (let i = 0; i < 5; i++) await add(`new${i}`);
    await api.t.app.inject({ method: 'POST', url: '/api/v1/news/delete', ...form({ id: first.list[2].ID }, api.admin) });

    // By offset the next page is shifted (what the console did): 4 of the first page again.
    expect(names(await page('start=10&limit=10')).slice(0, 4)).toEqual(['m23', 'm22', 'm21', 'm20']);

    // After the last message held: exactly the ones that followed it.
    const last = first.list[first.list.length - 1].ID;
    const second = await page(`before=${last}&limit=10`);
    expect(names(second)).toEqual(['m19', 'm18', 'm17', 'm16', 'm15', 'm14', 'm13', 'm12', 'm11', 'm10']);
    expect(second.total).toBe(34);
    const third = await page(`before=${second.list[9].ID}&limit=10`);
    expect(names(third)).toEqual(['m9', 'm8', 'm7', 'm6', 'm5', 'm4', 'm3', 'm2', 'm1', 'm0']);
    expect((await page(`before=${third.list[9].ID}`)).list).toEqual([]);
    // start counts from the cursor.
    expect(names(await page(`before=${last}&start=8&limit=5`))).toEqual(['m11', 'm10', 'm9', 'm8', 'm7']);
  });

  it('refuses a cursor that names no message, or is not an ID', async () => {
    await add('only');
    const missing = await api.t.app.inject({ url: '/api/v1/newslist?before=999999', headers: { token: api.admin } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().msg).toContain('999999');
    const bad = await api.t.app.inject({ url: '/api/v1/newslist?before=x', headers: { token: api.admin } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('before');
  });
});
