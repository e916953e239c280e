import type { NewsList } from '@opencvr/shared';
import { getV1, postV1 } from '../../lib/request';

export const fetchNews = (start: number, limit: number) => getV1<NewsList>('/api/v1/newslist', { start, limit });
/** No id marks everything read. */
export const readNews = (id?: number) => postV1<Record<string, never>>('/api/v1/news/read', id === undefined ? {} : { id });
export const deleteNews = (id: number) => postV1<Record<string, never>>('/api/v1/news/delete', { id });
