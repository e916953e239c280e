/**
 * Notices shown by code outside React (the request layer). The App component hands over antd's
 * context-aware message/notification instances; before that the static ones are used.
 * Durations and offset follow spec 9 (3000 ms, 2000 ms for errors, offset 50).
 */
import { message as staticMessage, notification as staticNotification } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { NOTIFY_DURATION_MS, NOTIFY_ERROR_DURATION_MS, NOTIFY_OFFSET } from '@opencvr/shared';

export const NOTICE_SECONDS = NOTIFY_DURATION_MS / 1000;
export const ERROR_NOTICE_SECONDS = NOTIFY_ERROR_DURATION_MS / 1000;
export const NOTICE_TOP = NOTIFY_OFFSET;

let messageApi: MessageInstance = staticMessage;
let notificationApi: NotificationInstance = staticNotification;

export function bindNotifiers(m: MessageInstance, n: NotificationInstance): void {
  messageApi = m;
  notificationApi = n;
}

export const notify = {
  success(text: string): void {
    void messageApi.success({ content: text, duration: NOTICE_SECONDS });
  },
  warning(text: string): void {
    void messageApi.warning({ content: text, duration: NOTICE_SECONDS });
  },
  /** A short error notice (spec 8: 2 s). */
  error(text: string): void {
    void messageApi.error({ content: text, duration: ERROR_NOTICE_SECONDS });
  },
  /** A notification panel for failures that are not tied to a form. */
  failure(title: string, text: string): void {
    notificationApi.error({ title, description: text, duration: ERROR_NOTICE_SECONDS, placement: 'topRight' });
  },
};
