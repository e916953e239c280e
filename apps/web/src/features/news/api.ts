import type { NewsList } from '@opencvr/shared';
import { getV1, postV1 } from '../../lib/request';

/** A page from the top, or (`before`: the last message held) the page after it, which messages arriving meanwhile do not shift. */
export const fetchNews = (limit: number, before?: number) =>
  getV1<NewsList>('/api/v1/newslist', before === undefined ? { start: 0, limit } : { start: 0, limit, before });
/** No id marks everything read. */
export const readNews = (id?: number) => postV1<Record<string, never>>('/api/v1/news/read', id === undefined ? {} : { id });
export const deleteNews = (id: number) => postV1<Record<string, never>>('/api/v1/news/delete', { id });
