/**
 * The message log of channel online/offline events (spec "news"). Events are platform-wide; read
 * and deleted marks are per user, so one operator's clean-up does not hide a message from another.
 * A user who is not an administrator gets the messages of the channels their role may see, no others.
 */
import type { Kysely } from 'kysely';
import type { NewsItem, NewsList } from '@opencvr/shared';
import type { Database } from '../../db/schema.js';
import type { EventBus } from '../events.js';
import { visibleChannelIds, type Scope } from '../inventory/scope.js';
import { notFound } from '../../http/errors.js';

export interface NewsInput {
  deviceId: string;
  channelId: string;
  channelName: string;
  online: boolean;
  time?: Date;
}

export class NewsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly events: EventBus,
  ) {}

  /** Records a transition and pushes it to every connected console. */
  async add(input: NewsInput): Promise<NewsItem> {
    const row = await this.db
      .insertInto('news')
      .values({
        device_id: input.deviceId,
        channel_id: input.channelId,
        channel_name: input.channelName,
        status: input.online ? 'ON' : 'OFF',
        news_time: (input.time ?? new Date()).toISOString(),
      })
      .returning(['id', 'device_id', 'channel_id', 'channel_name', 'status', 'news_time'])
      .executeTakeFirstOrThrow();
    const item = toItem({ ...row, read: 0 });
    this.events.publish({ topic: 'news', payload: item });
    return item;
  }

  /**
   * A page of the user's messages, newest first. With `before` (a message's ID) the page starts
   * after that message, and `start` counts from there: new messages arriving at the top between two
   * pages do not shift the next one (by offset alone it repeated the last page's tail, and a message
   * deleted above skipped one). total and unread stay those of the whole list. `scope`: only the
   * messages of channels it sees (a message of a channel since deleted is an administrator's).
   */
  async list(userId: number, start: number, limit: number, before?: number, scope: Scope = { all: true }): Promise<NewsList> {
    let visible = this.db
      .selectFrom('news')
      .leftJoin('news_state', (j) => j.onRef('news_state.news_id', '=', 'news.id').on('news_state.user_id', '=', userId))
      .where((eb) => eb.or([eb('news_state.deleted', 'is', null), eb('news_state.deleted', '=', 0)]));
    if (!scope.all)
      visible = visible.where((eb) =>
        eb.exists(
          eb
            .selectFrom('channels')
            .select('channels.id')
            .whereRef('channels.parent_device_id', '=', 'news.device_id')
            .whereRef('channels.channel_id', '=', 'news.channel_id')
            .where((c) => visibleChannelIds(c as unknown as Parameters<typeof visibleChannelIds>[0], scope)!),
        ),
      );
    const { total } = await visible.select((eb) => eb.fn.countAll<string | number>().as('total')).executeTakeFirstOrThrow();
    const { unread } = await visible
      .where((eb) => eb.or([eb('news_state.read', 'is', null), eb('news_state.read', '=', 0)]))
      .select((eb) => eb.fn.countAll<string | number>().as('unread'))
      .executeTakeFirstOrThrow();
    let page = visible;
    if (before !== undefined) {
      const at = await this.db.selectFrom('news').select('news_time').where('id', '=', before).executeTakeFirst();
      if (!at) throw notFound('news', { id: before });
      // The list's order is (news_time, id) descending: what comes after the cursor in it.
      page = page.where((eb) =>
        eb.or([eb('news.news_time', '<', at.news_time), eb.and([eb('news.news_time', '=', at.news_time), eb('news.id', '<', before)])]),
      );
    }
    const rows = await page
      .select(['news.id', 'news.device_id', 'news.channel_id', 'news.channel_name', 'news.status', 'news.news_time', 'news_state.read'])
      .orderBy('news.news_time', 'desc')
      .orderBy('news.id', 'desc')
      .limit(limit)
      .offset(start)
      .execute();
    return { total: Number(total), unread: Number(unread), list: rows.map(toItem) };
  }

  /** Marks one message (or, without an id, every message) read for a user. */
  async markRead(userId: number, newsId?: number) {
    const ids = newsId
      ? [newsId]
      : (await this.db.selectFrom('news').select('id').execute()).map((r) => r.id);
    await this.setState(userId, ids, { read: 1 });
  }

  async remove(userId: number, newsId: number) {
    await this.setState(userId, [newsId], { read: 1, deleted: 1 });
  }

  private async setState(userId: number, ids: number[], state: { read: number; deleted?: number }) {
    if (!ids.length) return;
    const existing = await this.db.selectFrom('news').select('id').where('id', 'in', ids).execute();
    for (let i = 0; i < existing.length; i += 500) {
      const chunk = existing.slice(i, i + 500);
      await this.db
        .insertInto('news_state')
        .values(chunk.map((r) => ({ user_id: userId, news_id: r.id, read: state.read, deleted: state.deleted ?? 0 })))
        .onConflict((oc) =>
          oc.columns(['user_id', 'news_id']).doUpdateSet({ read: state.read, ...(state.deleted ? { deleted: state.deleted } : {}) }),
        )
        .execute();
    }
  }
}

function toItem(r: {
  id: number;
  device_id: string;
  channel_id: string;
  channel_name: string;
  status: string;
  news_time: string;
  read: number | null;
}): NewsItem {
  return {
    ID: r.id,
    Status: r.status === 'ON' ? 'ON' : 'OFF',
    DeviceID: r.device_id,
    ChannelID: r.channel_id,
    ChannelName: r.channel_name,
    NewsTime: r.news_time,
    sign: r.read ? 1 : 0,
  };
}
