/**
 * Notices shown by code outside React (the request layer, form hooks). antd's message and
 * notification code is not part of the first load (the login page shows no notices): the first
 * notice asks for the notice host (`NoticeHost`, a lazy chunk rendered by the App inside the
 * ConfigProvider, so notices follow the theme and locale); notices wait in a queue until it has
 * bound its instances here. Durations and offset follow spec 9 (3000 ms, 2000 ms for errors,
 * offset 50).
 */
import { create } from 'zustand';
import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { NOTIFY_DURATION_MS, NOTIFY_ERROR_DURATION_MS, NOTIFY_OFFSET } from '@opencvr/shared';

export const NOTICE_SECONDS = NOTIFY_DURATION_MS / 1000;
export const ERROR_NOTICE_SECONDS = NOTIFY_ERROR_DURATION_MS / 1000;
export const NOTICE_TOP = NOTIFY_OFFSET;

interface Notifiers {
  message: MessageInstance;
  notification: NotificationInstance;
}

/**
 * `wanted` turns true on the first notice; the App then renders the notice host. `tries` counts the
 * host's chunk loads that failed (see noticeHostFailed).
 */
export const useNoticeHost = create<{ wanted: boolean; tries: number }>(() => ({ wanted: false, tries: 0 }));

let apis: Notifiers | null = null;
const queue: ((n: Notifiers) => void)[] = [];

export function bindNotifiers(message: MessageInstance, notification: NotificationInstance): void {
  apis = { message, notification };
  for (const show of queue.splice(0)) show(apis);
}

/**
 * The host's chunk did not arrive (the server or the network is down, which is often what the
 * notice was about). The waiting notices are dropped, being about a moment that has passed, and the
 * next notice loads the chunk again.
 */
export function noticeHostFailed(): void {
  queue.length = 0;
  useNoticeHost.setState((s) => ({ wanted: false, tries: s.tries + 1 }));
}

/** The host unmounted: later notices wait for the next one. */
export function unbindNotifiers(): void {
  apis = null;
}

function show(fn: (n: Notifiers) => void): void {
  if (apis) {
    fn(apis);
    return;
  }
  queue.push(fn);
  if (!useNoticeHost.getState().wanted) useNoticeHost.setState({ wanted: true });
}

/*
 * Each notice is keyed by its kind and text: the same notice again (two calls of a page failing for
 * the same reason, a retry failing as before) replaces the one showing and restarts its time instead
 * of stacking a copy under it.
 */
export const notify = {
  success(text: string): void {
    show((n) => void n.message.success({ key: `success:${text}`, content: text, duration: NOTICE_SECONDS }));
  },
  warning(text: string): void {
    show((n) => void n.message.warning({ key: `warning:${text}`, content: text, duration: NOTICE_SECONDS }));
  },
  /** A short error notice (spec 8: 2 s). */
  error(text: string): void {
    show((n) => void n.message.error({ key: `error:${text}`, content: text, duration: ERROR_NOTICE_SECONDS }));
  },
  /** A notification panel for failures that are not tied to a form. */
  failure(title: string, text: string): void {
    show((n) =>
      n.notification.error({
        key: `failure:${title}\n${text}`,
        title,
        description: text,
        duration: ERROR_NOTICE_SECONDS,
        placement: 'topRight',
      }),
    );
  },
};
