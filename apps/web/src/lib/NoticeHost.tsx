/**
 * Lazy chunk holding antd's message and notification code. Rendered by the App (inside the
 * ConfigProvider) once the first notice is asked for; binds its instances to `notify`.
 */
import { useEffect } from 'react';
import message from 'antd/es/message';
import notification from 'antd/es/notification';
import { bindNotifiers, NOTICE_SECONDS, NOTICE_TOP, unbindNotifiers } from './notify';

export default function NoticeHost() {
  const [messageApi, messageHolder] = message.useMessage({ duration: NOTICE_SECONDS, top: NOTICE_TOP });
  const [notificationApi, notificationHolder] = notification.useNotification({
    duration: NOTICE_SECONDS,
    top: NOTICE_TOP,
  });
  useEffect(() => {
    bindNotifiers(messageApi, notificationApi);
    return unbindNotifiers;
  }, [messageApi, notificationApi]);
  return (
    <>
      {messageHolder}
      {notificationHolder}
    </>
  );
}
